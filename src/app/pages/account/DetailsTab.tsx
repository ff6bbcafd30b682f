import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import * as T from '../../tokens';
import { SchemaForm } from '../../forms';
import detailsForm from '../../forms/precompiled/account-details-form';
import { SelectWidget } from '../../forms/select-widget';
import { useApi, useEventBus, useService, useSessionState } from '../../hooks';
import { forgetProfile, loadProfile } from '../../services/profile-loader';
import { StorageKeys, type KeyValueStorage } from '../../services/storage';
import { Notice } from '../auth/Notice';
import {
  ACCOUNT_BANNER_MS,
  buildUpdatePayload,
  detailsSchema,
  detailsUiSchema,
  toDetailsForm,
  pendingEmailText,
  type AccountProfile,
  type DetailsForm,
  type EmailChangePayload,
  type UpdatePayload,
} from './account-form';
import { ChunkBoundary } from '../../components/ChunkBoundary';
import { useTimedNotice } from './useTimedNotice';

/** The password dialog of an e-mail change is a chunk of its own, loaded when first needed. */
const ConfirmPasswordDialog = lazy(() =>
  import(/* webpackChunkName: "confirm-password-dialog" */ './ConfirmPasswordDialog').then((m) => ({ default: m.ConfirmPasswordDialog })),
);

/** The role, currency and time-zone lists show at once: their widget comes with the page. */
const detailsWidgets = { SelectWidget, select: SelectWidget };

interface UpdateReply {
  status?: string;
  message?: string;
  /** set when the e-mail change waits for the link sent to the new address */
  pending_email?: string;
}

/**
 * My details (spec sections 2 and 4, My Account): GET the profile, edit it, PUT the update. The
 * result shows in a banner for 5 seconds: success style when status is 'success', else warning.
 * A new e-mail address first asks for the current password (sent as `password`); the server then
 * keeps the old address until the new one is confirmed, and a lasting banner says so.
 */
export function DetailsTab() {
  const api = useApi();
  const bus = useEventBus();
  const storage = useService<KeyValueStorage>(T.Storage);
  const { userId } = useSessionState();
  const [profile, setProfile] = useState<AccountProfile | null>(null);
  // an update that changes the e-mail, waiting for the current password
  const [awaitingPassword, setAwaitingPassword] = useState<UpdatePayload | null>(null);
  // the dialog stays mounted once it has been asked for, so it closes with its animation as before
  const [dialogWanted, setDialogWanted] = useState(false);
  useEffect(() => {
    if (awaitingPassword) setDialogWanted(true);
  }, [awaitingPassword]);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [banner, showBanner] = useTimedNotice(ACCOUNT_BANNER_MS);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    loadProfile<AccountProfile>(api, userId)
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

  /** PUT the update; an error reply throws with the server's sentence. */
  const send = async (payload: UpdatePayload | EmailChangePayload) => {
    const reply = await api.put<UpdateReply | undefined>(`/api/platform/users/${userId}/`, payload);
    forgetProfile(api, userId);
    const ok = reply?.status === 'success';
    showBanner({ intent: ok ? 'success' : 'warning', text: reply?.message || (ok ? 'Your details have been saved.' : 'Your details could not be saved.') });
    if (!ok) return;
    bus.publish('profile/updated', { name: payload.name });
    storage.setItem(StorageKeys.timeZone, payload.time_zone);
    // the old address stays in force until the new one is confirmed; later saves compare with it
    const pending = reply?.pending_email;
    setProfile((p) =>
      p
        ? {
            ...p,
            Name: payload.name,
            Currency: payload.currency,
            Time_zone: payload.time_zone,
            ...(pending ? { Pending_email: pending } : payload.email ? { Email: payload.email } : {}),
          }
        : p,
    );
  };

  const save = async (form: DetailsForm) => {
    const payload = buildUpdatePayload(profile, form);
    if (payload.email) {
      setAwaitingPassword(payload);
      return;
    }
    setSaving(true);
    try {
      await send(payload);
    } catch (e) {
      showBanner({ intent: 'warning', text: (e as Error).message });
    }
    setSaving(false);
  };

  /** The dialog's confirm: an error keeps the dialog open with the server's sentence. */
  const saveWithPassword = async (password: string): Promise<string | null> => {
    if (!awaitingPassword?.email) return null;
    try {
      await send({ ...awaitingPassword, email: awaitingPassword.email, password });
      setAwaitingPassword(null);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 880 }}>
      <Notice notice={banner} />
      {profile.Pending_email && (
        <MessageBar intent="info" layout="multiline" data-testid="pending-email">
          <MessageBarBody style={{ overflowWrap: 'anywhere' }}>{pendingEmailText(profile.Pending_email)}</MessageBarBody>
        </MessageBar>
      )}
      <SchemaForm<DetailsForm>
        // a saved change starts the form again from the stored values (the e-mail in force)
        key={`${profile.Email}|${profile.Pending_email ?? ''}`}
        schema={schema}
        precompiled={detailsForm}
        uiSchema={detailsUiSchema}
        widgets={detailsWidgets}
        formData={initial}
        idPrefix="details"
        onSubmit={save}
        submitText="Save"
        busy={saving}
      />
      {(dialogWanted || awaitingPassword) && (
        <ChunkBoundary>
          <Suspense fallback={null}>
            <ConfirmPasswordDialog newEmail={awaitingPassword?.email ?? null} onConfirm={saveWithPassword} onCancel={() => setAwaitingPassword(null)} />
          </Suspense>
        </ChunkBoundary>
      )}
    </div>
  );
}
