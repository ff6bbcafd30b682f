import { useEffect, useMemo, useState } from 'react';
import { Spinner } from '@fluentui/react-components';
import * as T from '../../../core/tokens';
import type { UserProfile } from '../../../core/domain';
import { SchemaForm } from '../../forms';
import { useApi, useEventBus, useService, useSessionState } from '../../hooks';
import { StorageKeys, type KeyValueStorage } from '../../services/storage';
import { Notice } from '../auth/Notice';
import {
  ACCOUNT_BANNER_MS,
  buildUpdatePayload,
  detailsSchema,
  detailsUiSchema,
  toDetailsForm,
  type DetailsForm,
  type UpdatePayload,
} from './account-form';
import { useTimedNotice } from './useTimedNotice';

interface UpdateReply {
  status?: string;
  message?: string;
}

/**
 * My details (spec sections 2 and 4, My Account): GET the profile, edit it, PUT the update. The
 * result shows in a banner for 5 seconds: success style when status is 'success', else warning.
 */
export function DetailsTab() {
  const api = useApi();
  const bus = useEventBus();
  const storage = useService<KeyValueStorage>(T.Storage);
  const { userId } = useSessionState();
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [banner, showBanner] = useTimedNotice(ACCOUNT_BANNER_MS);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    api
      .get<UserProfile>(`/api/platform/users/${userId}/`)
      .then((p) => live && setProfile(p))
      .catch((e) => {
        // spec section 8: fetch errors on the account screen render blank and log only
        console.log(e);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [api, userId]);

  const schema = useMemo(() => (profile ? detailsSchema(profile) : null), [profile]);
  const initial = useMemo(() => (profile ? toDetailsForm(profile) : null), [profile]);

  if (!userId || failed) return null;
  if (!profile || !schema || !initial) return <Spinner label="Loading your details…" style={{ padding: 32 }} />;

  const save = async (form: DetailsForm) => {
    const payload: UpdatePayload = buildUpdatePayload(profile, form);
    setSaving(true);
    try {
      const reply = await api.put<UpdateReply | undefined>(`/api/platform/users/${userId}/`, payload);
      const ok = reply?.status === 'success';
      showBanner({ intent: ok ? 'success' : 'warning', text: reply?.message || (ok ? 'Your details have been saved.' : 'Your details could not be saved.') });
      if (ok) {
        bus.publish('profile/updated', { name: payload.name });
        storage.setItem(StorageKeys.timeZone, payload.time_zone);
        // later saves compare the e-mail with the one just stored
        setProfile((p) => (p ? { ...p, Name: payload.name, Email: payload.email ?? p.Email, Currency: payload.currency, Time_zone: payload.time_zone } : p));
      }
    } catch (e) {
      showBanner({ intent: 'warning', text: (e as Error).message });
    }
    setSaving(false);
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 880 }}>
      <Notice notice={banner} />
      <SchemaForm<DetailsForm>
        schema={schema}
        uiSchema={detailsUiSchema}
        formData={initial}
        idPrefix="details"
        onSubmit={save}
        submitText="Save"
        busy={saving}
      />
    </div>
  );
}
