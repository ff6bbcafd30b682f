import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApi } from '../../hooks';
import { ApiError } from '../../services/http';
import { AuthText } from './messages';
import type { NoticeValue } from './Notice';

interface StatusReply {
  status?: string;
  message?: string;
}

/**
 * Spec section 4, E-mail verification: /login?verify=...&email=...&token=... posts
 * /api/platform/emailVerify {email} with `Authorization: Token {token}`. The call is not an
 * authenticated session call (auth: false), so its 401 does not end a session. Once answered,
 * the one-time token is taken out of the address bar.
 */
export function useEmailVerification(): NoticeValue | null {
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const verify = params.get('verify');
  const email = params.get('email');
  const token = params.get('token');
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (verify === null || verify === 'false' || !email || !token) return;
    const key = `${email}\n${token}`;
    if (sent.current === key) return; // once per link, also under StrictMode's double effects
    sent.current = key;
    setNotice({ intent: 'info', text: 'Verifying your account…' });
    api
      .post<StatusReply | undefined>('/api/platform/emailVerify', { email }, { auth: false, headers: { Authorization: `Token ${token}` } })
      .then((reply) => {
        if (reply?.status && reply.status !== 'success') setNotice({ intent: 'error', text: reply.message || AuthText.verifyFailed });
        else setNotice({ intent: 'success', text: AuthText.verified });
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) setNotice({ intent: 'error', text: AuthText.verifyFailed });
        else setNotice({ intent: 'error', text: (e as Error).message || AuthText.verifyFailed });
      })
      .finally(() => navigate({ search: '' }, { replace: true }));
  }, [api, navigate, verify, email, token]);

  return notice;
}
