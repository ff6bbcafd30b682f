import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { LockClosed24Regular } from '@fluentui/react-icons/svg/lock-closed';
import { MailCheckmark24Regular } from '@fluentui/react-icons/svg/mail-checkmark';
import { Key24Regular } from '@fluentui/react-icons/svg/key';
import { LinkDismiss24Regular } from '@fluentui/react-icons/svg/link-dismiss';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import forgetSchema from '../../../schemas/auth/forget-password.schema.json';
import { SchemaForm } from '../forms';
import forgetForm from '../forms/precompiled/auth-forget-password';
import resetForm from '../forms/precompiled/auth-reset-password-form';
import { resetFormSchema } from './auth/reset-form';
import { useApi } from '../hooks';
import { AppLink } from './auth/AppLink';
import { AuthCardLayout, AuthHeading } from './auth/AuthLayout';
import { AuthText } from './auth/messages';
import { Notice } from './auth/Notice';
import { canSubmitPasswords, passwordMismatch } from './auth/register-form';
import type { LoginLocationState } from './LoginPage';

interface StatusReply {
  status?: string;
  message?: string;
}

const useStyles = makeStyles({
  icon: {
    width: '48px',
    height: '48px',
    borderRadius: '12px',
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
  },
  back: { textAlign: 'center', color: tokens.colorNeutralForeground2 },
});

function IconTile({ children }: { children: ReactNode }) {
  const s = useStyles();
  return (
    <span className={s.icon} aria-hidden="true">
      {children}
    </span>
  );
}

function BackToLogin() {
  const s = useStyles();
  return (
    <Body1 className={s.back}>
      <AppLink to="/login">Back to login</AppLink>
    </Body1>
  );
}

/** A failed call's message: the reply's own for an error status, else the thrown error's. */
const failure = (reply: StatusReply | undefined, fallback: string) => reply?.message || fallback;

// ---------------------------------------------------------------------------------------------
// The request form: e-mail -> POST /api/platform/forgetPassword -> 'received' confirmation.

interface ForgetForm {
  email: string;
}

const forgetUi: UiSchema = {
  email: { 'ui:widget': 'email', 'ui:autocomplete': 'email', 'ui:placeholder': 'Enter your email', 'ui:autofocus': true },
};

function RequestForm() {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [received, setReceived] = useState<{ email: string } | null>(null);

  const submit = async ({ email }: ForgetForm) => {
    setBusy(true);
    setWarning(null);
    try {
      const reply = await api.post<StatusReply | undefined>('/api/platform/forgetPassword', { email: email.trim() }, { auth: false });
      if (reply?.status === 'success') setReceived({ email: email.trim() });
      else setWarning(failure(reply, 'We could not send the reset link. Please try again.'));
    } catch (e) {
      setWarning((e as Error).message);
    }
    setBusy(false);
  };

  if (received) {
    return (
      <>
        <AuthHeading
          icon={
            <IconTile>
              <MailCheckmark24Regular />
            </IconTile>
          }
          title="Check your email"
          subtitle={
            <>
              If an account exists for <strong>{received.email}</strong>, we have sent it a link to reset the password.
            </>
          }
        />
        <Button appearance="secondary" size="large" onClick={() => setReceived(null)}>
          Didn’t receive it? Send again
        </Button>
        <BackToLogin />
      </>
    );
  }

  return (
    <>
      <AuthHeading
        icon={
          <IconTile>
            <Key24Regular />
          </IconTile>
        }
        title="Forgot password?"
        subtitle="No worries. Enter your email and we’ll send you a link to reset your password."
      />
      <Notice notice={warning ? { intent: 'warning', text: warning } : null} />
      <SchemaForm<ForgetForm>
        schema={forgetSchema as RJSFSchema}
        precompiled={forgetForm}
        uiSchema={forgetUi}
        idPrefix="forget"
        onSubmit={submit}
        submitText="Send reset link"
        busy={busy}
        blockSubmit
      />
      <BackToLogin />
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The reset form: password + confirm -> POST /api/platform/resetPassword -> /login.

interface ResetForm {
  password?: string;
  confirm?: string;
}

const resetUi: UiSchema = {
  password: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password', 'ui:help': 'At least 8 characters.', 'ui:autofocus': true },
  confirm: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
};

/** The answer of POST /api/platform/checkResetLink. */
interface LinkState {
  valid?: boolean;
  message?: string;
}

/**
 * Asks the server, when the page opens, whether the link can still be used (without using it
 * up): the dead link's message, or null while unknown, live, or when the check itself failed
 * (then the form stays and the reset's own answer tells).
 */
function useDeadLinkMessage(token: string, access: string): string | null {
  const api = useApi();
  const [dead, setDead] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setDead(null);
    api
      .post<LinkState | undefined>('/api/platform/checkResetLink', { access }, { auth: false, headers: { Authorization: `Token ${token}` } })
      .then((reply) => {
        if (live && reply?.valid === false) setDead(reply.message || DEAD_LINK);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, token, access]);
  return dead;
}

const DEAD_LINK = 'This password reset link can no longer be used.';

/** A link that expired or was used: said at once, with a way to ask for a new one. */
function DeadLink({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <>
      <AuthHeading
        icon={
          <IconTile>
            <LinkDismiss24Regular />
          </IconTile>
        }
        title="This link can no longer be used"
        subtitle={`${message} Ask for a new link and use the newest e-mail we send you.`}
      />
      <Button appearance="primary" size="large" onClick={() => navigate('/reset-password', { replace: true })}>
        Send me a new link
      </Button>
      <BackToLogin />
    </>
  );
}

function ResetForm({ token, access, username }: { token: string; access: string; username: string }) {
  const dead = useDeadLinkMessage(token, access);
  return dead ? <DeadLink message={dead} /> : <LiveResetForm token={token} access={access} username={username} />;
}

function LiveResetForm({ token, access, username }: { token: string; access: string; username: string }) {
  const api = useApi();
  const navigate = useNavigate();
  const [form, setForm] = useState<ResetForm>({});
  const [busy, setBusy] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);

  const submit = async ({ password }: ResetForm) => {
    setBusy(true);
    setWarning(null);
    try {
      const reply = await api.post<StatusReply | undefined>(
        '/api/platform/resetPassword',
        { access, password },
        { auth: false, headers: { Authorization: `Token ${token}` } },
      );
      if (reply?.status === 'success') {
        const state: LoginLocationState = { notice: { intent: 'success', text: reply.message || AuthText.passwordUpdated } };
        navigate('/login', { replace: true, state });
        return;
      }
      setWarning(failure(reply, 'We could not update your password. Please try again.'));
    } catch (e) {
      setWarning((e as Error).message);
    }
    setBusy(false);
  };

  return (
    <>
      <AuthHeading
        icon={
          <IconTile>
            <LockClosed24Regular />
          </IconTile>
        }
        title={AuthText.resetTitle}
        subtitle={
          <>
            Choose a new password for <strong>{username}</strong>.
          </>
        }
      />
      <Notice notice={warning ? { intent: 'warning', text: warning } : null} />
      <SchemaForm<ResetForm>
        schema={resetFormSchema}
        precompiled={resetForm}
        uiSchema={resetUi}
        idPrefix="reset"
        onChange={setForm}
        onSubmit={submit}
        fieldErrors={{ confirm: passwordMismatch(form.password, form.confirm) }}
        submitText={AuthText.update}
        submitDisabled={!canSubmitPasswords(form.password, form.confirm)}
        busy={busy}
        blockSubmit
      />
      <BackToLogin />
    </>
  );
}

/**
 * Spec section 2 (Password reset page) and 4 (Password reset): with token, access and username
 * in the query, the 'Reset your password' form; otherwise the request form.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const access = params.get('access');
  const username = params.get('username');
  return <AuthCardLayout>{token && access && username ? <ResetForm token={token} access={access} username={username} /> : <RequestForm />}</AuthCardLayout>;
}
