import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newId, type IssuedToken, type SandboxState } from './sandbox-state';

/** The sandbox OAuth apps: one per provider family, its secret derived by the server. */
export interface SandboxClient {
  clientId: string;
  clientSecret: string;
}

interface PendingCode {
  provider: 'google' | 'xero';
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  account: string;
  expiresAt: number;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).header('Cache-Control', 'no-store').send({ error, error_description: description });
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The client of a token request: HTTP Basic (Xero) or client_id/client_secret in the body (Google). */
function clientOf(request: FastifyRequest, body: Record<string, string>): { id?: string; secret?: string } {
  const auth = request.headers.authorization;
  if (auth && /^Basic /i.test(auth)) {
    const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: body.client_id, secret: body.client_secret };
}

/**
 * An OAuth 2.0 authorisation server like Google's and Xero's: a consent page, the code grant
 * with S256 PKCE (the verifier is checked), refresh (Xero's refresh tokens rotate: each is good
 * for one use), RFC 7009 revocation, bearer checks for the APIs.
 */
export class SandboxOAuth {
  private readonly codes = new Map<string, PendingCode>();
  /** where sign-in may send the browser back (exact match, as Google and Xero require); none until registered */
  private readonly redirectUris = new Set<string>();

  constructor(
    private readonly state: SandboxState,
    private readonly clients: Record<'google' | 'xero', SandboxClient>,
    private readonly accessTtlSeconds: () => number,
  ) {}

  /** Lets sign-in send the browser back to `uri` (the server registers its Connect callback). */
  registerRedirectUri(uri: string): void {
    this.redirectUris.add(uri);
  }

  /** Registers authorize, decision, token and revoke under `base` for one provider family. */
  mount(app: FastifyInstance, provider: 'google' | 'xero', paths: { authorize: string; token: string; revoke: string }): void {
    const client = this.clients[provider];
    const label = provider === 'google' ? 'Google' : 'Xero';

    app.get(paths.authorize, async (request, reply) => {
      const q = request.query as Record<string, string>;
      const problem =
        q.client_id !== client.clientId
          ? 'unknown client_id'
          : q.response_type !== 'code'
            ? 'response_type must be code'
            : q.code_challenge_method !== 'S256' || !q.code_challenge
              ? 'a S256 code_challenge is required (PKCE)'
              : !q.redirect_uri
                ? 'redirect_uri is required'
                : !this.redirectUris.has(q.redirect_uri)
                  ? 'redirect_uri is not registered for this client'
                  : !q.state
                    ? 'state is required'
                    : undefined;
      if (problem)
        return reply
          .code(400)
          .type('text/html')
          .send(`<h1>Sandbox ${label}: bad request</h1><p>${esc(problem)}</p>`);
      const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']
        .map((k) => `<input type="hidden" name="${k}" value="${esc(q[k] ?? '')}">`)
        .join('');
      const defaultAccount = provider === 'google' ? 'sandbox.user@example.com' : 'Sandbox Trading Ltd';
      return reply.type('text/html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox ${label} – sign in</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label,input,button{font-size:1rem}input[type=text]{width:100%;padding:.4rem}button{margin:.8rem .4rem 0 0;padding:.5rem 1rem}.tag{background:#fde7c2;padding:.1rem .4rem;border-radius:.3rem}</style></head>
<body><p class="tag">Sandbox – a local stand-in for ${label}, nothing leaves this machine</p><h1>Sign in to ${label}</h1>
<p>Flowmatic asks for: <code>${esc(q.scope ?? '')}</code></p>
<form method="post" action="${paths.authorize}/decision">${hidden}
<label for="account">${provider === 'google' ? 'Account (e-mail)' : 'Organisation'}</label><input type="text" id="account" name="account" value="${esc(defaultAccount)}" required>
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></form></body></html>`);
    });

    app.post(`${paths.authorize}/decision`, async (request, reply) => {
      const b = request.body as Record<string, string>;
      if (b.client_id !== client.clientId || !b.redirect_uri || !b.state || !b.code_challenge) return reply.code(400).send('Bad decision.');
      // never send the browser (and a code) to an address the client did not register
      if (!this.redirectUris.has(b.redirect_uri)) return reply.code(400).send('redirect_uri is not registered for this client.');
      const back = new URL(b.redirect_uri);
      back.searchParams.set('state', b.state);
      if (b.decision !== 'allow') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied access.');
        return reply.redirect(back.href, 302);
      }
      const code = newId('code_');
      this.codes.set(code, {
        provider,
        clientId: b.client_id,
        redirectUri: b.redirect_uri,
        challenge: b.code_challenge,
        scope: b.scope ?? '',
        account: (b.account ?? '').trim().slice(0, 120) || 'sandbox',
        expiresAt: Date.now() + 60_000,
      });
      back.searchParams.set('code', code);
      return reply.redirect(back.href, 302);
    });

    app.post(paths.token, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string>;
      const c = clientOf(request, body);
      if (c.id !== client.clientId || !c.secret || !sameSecret(c.secret, client.clientSecret))
        return oauthError(reply, 401, 'invalid_client', 'Unknown client or wrong secret.');
      if (body.grant_type === 'authorization_code') {
        const pending = this.codes.get(body.code ?? '');
        this.codes.delete(body.code ?? '');
        if (!pending || pending.expiresAt < Date.now() || pending.provider !== provider)
          return oauthError(reply, 400, 'invalid_grant', 'The code is unknown, used or expired.');
        if (pending.redirectUri !== body.redirect_uri) return oauthError(reply, 400, 'invalid_grant', 'redirect_uri does not match the authorisation request.');
        const challenge = createHash('sha256')
          .update(body.code_verifier ?? '')
          .digest('base64url');
        if (!body.code_verifier || challenge !== pending.challenge)
          return oauthError(reply, 400, 'invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
        return reply.header('Cache-Control', 'no-store').send(this.issue({ provider, account: pending.account, clientId: c.id, scope: pending.scope }, true));
      }
      if (body.grant_type === 'refresh_token') {
        const issued = this.state.read().refresh[body.refresh_token ?? ''];
        if (!issued || issued.provider !== provider || issued.clientId !== c.id)
          return oauthError(reply, 400, 'invalid_grant', 'The refresh token is unknown, revoked or already used.');
        const rotate = provider === 'xero';
        if (rotate) this.state.change((s) => delete s.refresh[body.refresh_token]);
        const reply2 = this.issue({ provider, account: issued.account, clientId: c.id, scope: issued.scope }, rotate);
        return reply.header('Cache-Control', 'no-store').send(reply2);
      }
      return oauthError(reply, 400, 'unsupported_grant_type', 'Only authorization_code and refresh_token.');
    });

    app.post(paths.revoke, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string>;
      const c = clientOf(request, body);
      if (c.id !== client.clientId || !c.secret || !sameSecret(c.secret, client.clientSecret))
        return oauthError(reply, 401, 'invalid_client', 'Unknown client or wrong secret.');
      const token = body.token ?? '';
      this.state.change((s) => {
        const issued = s.refresh[token] ?? s.access[token];
        if (!issued) return;
        // revoking a refresh token ends the whole grant of that account and client
        for (const bag of [s.refresh, s.access]) {
          for (const [k, v] of Object.entries(bag))
            if (v.account === issued.account && v.clientId === issued.clientId && v.provider === provider) delete bag[k];
        }
      });
      return reply.code(200).send({});
    });
  }

  private issue(grant: Omit<IssuedToken, 'expiresAt'>, withRefresh: boolean) {
    const ttl = this.accessTtlSeconds();
    const access = newId(grant.provider === 'google' ? 'ya29.sandbox.' : 'xero.sandbox.', 24);
    const refresh = withRefresh ? newId(grant.provider === 'google' ? '1//sandbox.' : 'xero.refresh.', 24) : undefined;
    this.state.change((s) => {
      s.access[access] = { ...grant, expiresAt: Date.now() + ttl * 1000 };
      if (refresh) s.refresh[refresh] = { ...grant };
    });
    return { access_token: access, token_type: 'Bearer', expires_in: ttl, scope: grant.scope, ...(refresh ? { refresh_token: refresh } : {}) };
  }

  /** The account of a bearer token of `provider`, or undefined (missing, unknown, expired, revoked). */
  bearer(request: FastifyRequest, provider: 'google' | 'xero'): string | undefined {
    const h = request.headers.authorization;
    if (!h || !/^Bearer /i.test(h)) return undefined;
    const issued = this.state.read().access[h.slice(7).trim()];
    if (!issued || issued.provider !== provider || (issued.expiresAt ?? 0) < Date.now()) return undefined;
    return issued.account;
  }

  /** Test and page helper: ends every grant of an account (as if the user revoked access at the provider). */
  revokeAccount(provider: 'google' | 'xero', account: string): void {
    this.state.change((s) => {
      for (const bag of [s.refresh, s.access]) for (const [k, v] of Object.entries(bag)) if (v.provider === provider && v.account === account) delete bag[k];
    });
  }
}
