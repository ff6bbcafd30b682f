import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import loginSchema from '../../../schemas/auth/login.schema.json';
import { SchemaForm } from '../forms';
import loginForm from '../forms/precompiled/auth-login';
import { useSession } from '../hooks';
import { AppLink } from './auth/AppLink';
import { AuthHeading, AuthSplitLayout } from './auth/AuthLayout';
import { AuthText } from './auth/messages';
import { Notice, type NoticeValue } from './auth/Notice';
import { useEmailVerification } from './auth/useEmailVerification';

interface LoginForm {
  username: string;
  password: string;
}

const uiSchema: UiSchema = {
  username: { 'ui:widget': 'email', 'ui:autocomplete': 'username', 'ui:placeholder': 'Enter your email', 'ui:autofocus': true },
  password: { 'ui:widget': 'password', 'ui:autocomplete': 'current-password', 'ui:placeholder': '••••••••' },
};

const useStyles = makeStyles({
  forgotRow: { display: 'flex', justifyContent: 'flex-end', marginTop: tokens.spacingVerticalS },
  alt: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
  notices: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/** The note another screen leaves for /login (e.g. after a password reset), via router state. */
export interface LoginLocationState {
  notice?: NoticeValue;
}

/** Spec section 2 (Login) and 4 (Login, E-mail verification). */
export default function LoginPage() {
  const s = useStyles();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const verification = useEmailVerification();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const created: NoticeValue | null = params.get('Register') === 'true' ? { intent: 'success', text: AuthText.accountCreated } : null;
  const handedOver = (location.state as LoginLocationState | null)?.notice ?? null;

  const signIn = async ({ username, password }: LoginForm) => {
    setBusy(true);
    setError(null);
    const result = await session.login(username.trim(), password);
    if (result.ok) {
      navigate('/home');
      return;
    }
    setBusy(false);
    setError(result.message);
  };

  return (
    <AuthSplitLayout>
      <AuthHeading title={AuthText.loginTitle} subtitle={AuthText.loginWelcome} />
      {(created || verification || handedOver || error) && (
        <div className={s.notices}>
          <Notice notice={created} />
          <Notice notice={verification} />
          <Notice notice={handedOver} />
          <Notice notice={error ? { intent: 'error', text: error } : null} />
        </div>
      )}
      <SchemaForm<LoginForm>
        schema={loginSchema as RJSFSchema}
        precompiled={loginForm}
        uiSchema={uiSchema}
        idPrefix="login"
        onSubmit={signIn}
        submitText={AuthText.signIn}
        busy={busy}
        blockSubmit
        beforeSubmit={
          <div className={s.forgotRow}>
            <AppLink to="/reset-password">{AuthText.forgotPassword}</AppLink>
          </div>
        }
      />
      <Body1 className={s.alt}>
        Don’t have an account?{' '}
        <AppLink to="/register" style={{ fontWeight: 600 }}>
          {AuthText.signUp}
        </AppLink>
      </Body1>
    </AuthSplitLayout>
  );
}
