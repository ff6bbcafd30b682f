import { useState } from 'react';
import { SchemaForm } from '../../forms';
import passwordForm from '../../forms/precompiled/account-password-form';
import { useApi, useSession } from '../../hooks';
import { Notice, type NoticeValue } from '../auth/Notice';
import { canSavePassword, newPasswordMismatch, passwordSchema, passwordUiSchema, validatePasswordChange, type PasswordForm } from './account-form';

interface StatusReply {
  status?: string;
  message?: string;
  /** the new session generation's tokens: every other session was signed out */
  access?: string;
  refresh?: string;
}

/** The password form (spec sections 2, 5 and 7): POST /api/platform/userChangePassword {newpassword, password}. */
export function PasswordTab() {
  const api = useApi();
  const session = useSession();
  const [form, setForm] = useState<PasswordForm>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [formKey, setFormKey] = useState(0);

  const submit = async (f: PasswordForm) => {
    setBusy(true);
    setNotice(null);
    try {
      const reply = await api.post<StatusReply | undefined>('/api/platform/userChangePassword', {
        newpassword: f.newpassword,
        password: f.password,
      });
      if (reply?.status === 'success') {
        if (reply.access && reply.refresh) session.adoptTokens(reply.access, reply.refresh);
        setNotice({ intent: 'success', text: reply.message || 'Your password has been changed.' });
        setForm({});
        setFormKey((k) => k + 1); // clear the fields
      } else {
        setNotice({ intent: 'warning', text: reply?.message || 'Your password could not be changed.' });
      }
    } catch (e) {
      setNotice({ intent: 'error', text: (e as Error).message });
    }
    setBusy(false);
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 440 }}>
      <Notice notice={notice} />
      <SchemaForm<PasswordForm>
        key={formKey}
        schema={passwordSchema}
        precompiled={passwordForm}
        uiSchema={passwordUiSchema}
        idPrefix="password"
        onChange={setForm}
        onSubmit={submit}
        validate={validatePasswordChange}
        fieldErrors={{ confirm: newPasswordMismatch(form) }}
        submitText="Save"
        submitDisabled={!canSavePassword(form)}
        busy={busy}
      />
    </div>
  );
}
