import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { SchemaForm } from '../forms';
import registerForm from '../forms/precompiled/auth-register-form';
import { SelectWidget } from '../forms/select-widget';
import { useApi } from '../hooks';
import { AppLink } from './auth/AppLink';
import { AuthHeading, AuthSplitLayout } from './auth/AuthLayout';
import { AuthText } from './auth/messages';
import { Notice } from './auth/Notice';
import {
  buildRegisterPayload,
  canSubmitPasswords,
  passwordMismatch,
  registerFormSchema,
  registerUiSchema,
  validateRegistration,
  type RegisterForm,
} from './auth/register-form';
import { TermsWidget } from './auth/TermsWidget';

interface RegisterReply {
  status?: string;
  id?: number;
  message?: string;
}

// the role list shows at once: its widget comes with the page, not on first use
const widgets = { terms: TermsWidget, SelectWidget, select: SelectWidget };

const useStyles = makeStyles({
  alt: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
});

/** Spec section 2 (Register), 3 (Registration payload), 5 (Registration rules). */
export default function RegisterPage() {
  const s = useStyles();
  const api = useApi();
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterForm>({});
  const [busy, setBusy] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);

  const submit = async (data: RegisterForm) => {
    setBusy(true);
    setWarning(null);
    try {
      const reply = await api.post<RegisterReply | undefined>('/api/platform/register', buildRegisterPayload(data), { auth: false });
      if (reply?.status === 'error') {
        setWarning(reply.message || 'Registration failed. Please try again.');
        setBusy(false);
        return;
      }
      navigate('/login?Register=true');
    } catch (e) {
      setWarning((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <AuthSplitLayout>
      <AuthHeading title={AuthText.registerTitle} subtitle={AuthText.registerIntro} />
      <Notice notice={warning ? { intent: 'warning', text: warning } : null} />
      <SchemaForm<RegisterForm>
        schema={registerFormSchema}
        precompiled={registerForm}
        uiSchema={registerUiSchema}
        idPrefix="register"
        widgets={widgets}
        onChange={setForm}
        onSubmit={submit}
        validate={validateRegistration}
        fieldErrors={{ confirm_password: passwordMismatch(form.password, form.confirm_password) }}
        submitText={AuthText.createAccount}
        submitDisabled={!canSubmitPasswords(form.password, form.confirm_password)}
        busy={busy}
        blockSubmit
      />
      <Body1 className={s.alt}>
        Already have an account?{' '}
        <AppLink to="/login" style={{ fontWeight: 600 }}>
          Log in
        </AppLink>
      </Body1>
    </AuthSplitLayout>
  );
}
