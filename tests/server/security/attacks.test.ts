/**
 * Issue 7, security: each numbered item written as the attack that used to work.
 */
import { chmodSync, mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import * as T from '../../../src/server/tokens';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { openDatabase } from '../../../src/server/db/database';
import { secureDirectory } from '../../../src/server/db/file-modes';
import { OutboxMailer } from '../../../src/server/mail';
import { greetingName, passwordResetEmail } from '../../../src/server/auth/emails';
import { PASSWORD_RESET_JOB } from '../../../src/server/auth/recovery-routes';
import { PRUNE_SESSIONS_EVERY_MS, PRUNE_SESSIONS_JOB } from '../../../src/server/auth/sessions';
import type { TokenService } from '../../../src/server/auth/token-service';
import type { JobQueue } from '../../../src/server/queue/job-queue';
import { createUser, linkIn, login, startTestServer, type TestServer } from '../../support/server';

const LOGIN = '/api/platform/api-jwt-token/';
const REFRESH = '/api/platform/api-jwt-token-refresh/';
const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const userUrl = (id: number) => `/api/platform/users/${id}/`;
const details = (o: Record<string, unknown> = {}) => ({ name: 'Renamed Person', currency: 'EUR', time_zone: '(GMT+01:00) Europe/Paris', role: 11, ...o });
const mode = (p: string) => statSync(p).mode & 0o777;

/** Every file and folder under dir (not following links). */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? [p, ...walk(p)] : [p];
  });
}

describe('1. a forged X-Forwarded-For does not dodge per-address limits', () => {
  it('refuses TRUST_PROXY=true and accepts a hop count or proxy addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true', SECRET_KEY: SECRET })).toThrow(ConfigError);
    expect(loadConfig({ TRUST_PROXY: '1', SECRET_KEY: SECRET }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', SECRET_KEY: SECRET }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone', SECRET_KEY: SECRET })).toThrow(/CIDR/);
  });

  it.each([
    ['a hop count', '1'],
    ['a proxy address list', '127.0.0.1'],
  ])('with %s, 10 wrong logins with a changing header end in 429', async (_n, trust) => {
    const server = await startTestServer({ env: { TRUST_PROXY: trust, AUTH_RATE_LIMIT: '5' } });
    try {
      const u = await createUser(server);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        // the attacker's forged entry, then the address our proxy saw and appended
        const res = await server.call('POST', LOGIN, {
          body: { username: u.email, password: 'wrong' },
          headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('2, 4, 6, 7, 9: against one server', () => {
  let server: TestServer;
  let clockOffset = 0;
  beforeAll(async () => {
    server = await startTestServer({
      env: { WRITE_RATE_LIMIT_PER_USER: '1000' },
      overrides: (c) => c.rebind(T.Clock).toConstantValue({ now: () => Date.now() + clockOffset }),
    });
  });
  afterAll(() => server.close());
  beforeEach(() => (clockOffset = 0));

  describe('2. an e-mail change needs the password and proof of the new address', () => {
    it('refuses a change without the password (a stolen token cannot take the account)', async () => {
      const u = await createUser(server);
      const res = await server.call('PUT', userUrl(u.id), { token: u.access, body: details({ email: 'thief@example.com' }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'Enter your current password to change your e-mail address.' });
      const wrong = await server.call('PUT', userUrl(u.id), { token: u.access, body: details({ email: 'thief@example.com', password: 'guess' }) });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('Your current password is incorrect.');
      expect((await server.call('GET', userUrl(u.id), { token: u.access })).body.Email).toBe(u.email);
    });

    it('keeps the old address until the link sent to the new one is confirmed; the old one can cancel', async () => {
      const u = await createUser(server);
      const res = await server.call('PUT', userUrl(u.id), { token: u.access, body: details({ email: 'Moved.Here@Example.com', password: u.password }) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Check your new address to confirm the change.', pending_email: 'moved.here@example.com' });
      // nothing moved yet: the old address logs in, the new one does not
      await login(server, u.email, u.password);
      await expect(login(server, 'moved.here@example.com', u.password)).rejects.toThrow(/401/);
      expect((await server.call('GET', userUrl(u.id), { token: u.access })).body).toMatchObject({ Email: u.email, Pending_email: 'moved.here@example.com' });

      const notice = await server.mailer.waitFor(u.email);
      expect(notice.text).toContain('moved.here@example.com');
      const cancelLink = new URL(/http\S+\/email-change\/cancel\S+/.exec(notice.text)![0]);
      const confirmMail = await server.mailer.waitFor('moved.here@example.com');
      const confirmLink = new URL(/http\S+\/email-change\/confirm\S+/.exec(confirmMail.text)![0]);

      // opening the link (a mail scanner does) changes nothing; the page's button does
      const page = await server.call('GET', confirmLink.pathname + confirmLink.search);
      expect(page.status).toBe(200);
      expect(String(page.body)).toContain('<form method="post"');
      await login(server, u.email, u.password);

      const form = (_link: URL) => ({ 'content-type': 'application/x-www-form-urlencoded' });
      const confirm = await server.app.inject({
        method: 'POST',
        url: confirmLink.pathname,
        headers: form(confirmLink),
        payload: `token=${encodeURIComponent(confirmLink.searchParams.get('token')!)}`,
      });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('Your e-mail address has been changed');
      await login(server, 'moved.here@example.com', u.password);
      await expect(login(server, u.email, u.password)).rejects.toThrow(/401/);
      // the cancel link of that change is spent with it, and the confirm link works once
      const cancel = await server.app.inject({
        method: 'POST',
        url: cancelLink.pathname,
        headers: form(cancelLink),
        payload: `token=${encodeURIComponent(cancelLink.searchParams.get('token')!)}`,
      });
      expect(cancel.statusCode).toBe(400);
      const again = await server.app.inject({
        method: 'POST',
        url: confirmLink.pathname,
        headers: form(confirmLink),
        payload: `token=${encodeURIComponent(confirmLink.searchParams.get('token')!)}`,
      });
      expect(again.statusCode).toBe(400);
    });

    it('lets the old address cancel the change, after which the confirm link is dead', async () => {
      const u = await createUser(server);
      await server.call('PUT', userUrl(u.id), { token: u.access, body: details({ email: 'claimed@example.com', password: u.password }) });
      const cancelLink = new URL(/http\S+\/email-change\/cancel\S+/.exec((await server.mailer.waitFor(u.email)).text)![0]);
      const confirmLink = new URL(/http\S+\/email-change\/confirm\S+/.exec((await server.mailer.waitFor('claimed@example.com')).text)![0]);
      const post = (l: URL) =>
        server.app.inject({
          method: 'POST',
          url: l.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `token=${encodeURIComponent(l.searchParams.get('token')!)}`,
        });
      expect((await post(cancelLink)).statusCode).toBe(200);
      expect((await post(confirmLink)).statusCode).toBe(400);
      const row = await server.db.selectFrom('users').select(['email', 'pending_email']).where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ email: u.email, pending_email: null });
    });
  });

  describe('4. links mailed before a credential change stop working', () => {
    it('a reset link sent before a password change is refused after it', async () => {
      const u = await createUser(server);
      await server.call('POST', '/api/platform/forgetPassword', { body: { email: u.email } });
      const link = linkIn(server, await server.mailer.waitFor(u.email));
      const changed = await server.call('POST', '/api/platform/userChangePassword', {
        token: u.access,
        body: { password: u.password, newpassword: 'a brand new password' },
      });
      expect(changed.status).toBe(200);
      const res = await server.call('POST', '/api/platform/resetPassword', {
        body: { access: link.searchParams.get('access'), password: 'the attacker password' },
        headers: { authorization: `Token ${link.searchParams.get('token')}` },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This password reset link is invalid or has expired.');
      await login(server, u.email, 'a brand new password');
    });

    it('a second reset link is refused once the first one reset the password', async () => {
      const u = await createUser(server);
      await server.call('POST', '/api/platform/forgetPassword', { body: { email: u.email } });
      const first = linkIn(server, await server.mailer.waitFor(u.email));
      server.mailer.sent.length = 0;
      await server.call('POST', '/api/platform/forgetPassword', { body: { email: u.email } });
      const second = linkIn(server, await server.mailer.waitFor(u.email));
      const use = (l: URL) =>
        server.call('POST', '/api/platform/resetPassword', {
          body: { access: l.searchParams.get('access'), password: 'another long password' },
          headers: { authorization: `Token ${l.searchParams.get('token')}` },
        });
      expect((await use(first)).status).toBe(200);
      expect((await use(second)).status).toBe(400);
    });
  });

  describe('6. request limits', () => {
    it('refuses an oversize anonymous body with 413 (100 KB default), before any parsing', async () => {
      const res = await server.call('POST', LOGIN, { body: { username: 'x@example.com', password: 'p'.repeat(200 * 1024) } });
      expect(res.status).toBe(413);
      expect(res.body.status).toBe('error');
    });

    it('answers an anonymous 2 MB body to a signed-in route with 401, not after parsing it', async () => {
      const res = await server.call('PUT', userUrl(1001), { body: { name: 'n'.repeat(2 * 1024 * 1024) } });
      expect(res.status).toBe(401);
    });
  });

  describe('7. a NUL byte in a text field', () => {
    it('is refused with a clear 400, never a 500', async () => {
      const u = await createUser(server);
      const put = await server.call('PUT', userUrl(u.id), { token: u.access, body: details({ name: 'Evil\u0000Name' }) });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({ status: 'error', message: 'Text must not contain the NUL character (\\u0000).' });
      const reg = await server.call('POST', '/api/platform/register', {
        body: {
          name: 'N',
          username: 'nul@example.com',
          email: 'nul@example.com',
          role: 'ds',
          company: 'A\u0000B',
          password: 'long enough password',
          accept_terms: true,
        },
      });
      expect(reg.status).toBe(400);
      const search = await server.call('POST', '/api/platform/searchWorkflowTemplate', { token: u.access, body: { SolutionId: 1, Query: 'a\u0000' } });
      expect(search.status).toBe(400);
    });
  });

  describe('9. refresh tokens rotate; a reused one revokes its session; log out ends it on the server', () => {
    it('rotates, tolerates a race within 30 s, and revokes the family on a later reuse', async () => {
      const u = await createUser(server);
      const pair = await login(server, u.email, u.password);
      const first = await server.call('POST', REFRESH, { body: { refresh: pair.refresh } });
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual(['access', 'refresh']);
      expect(first.body.refresh).not.toBe(pair.refresh);
      // another tab racing with the same token within the grace window: still fine
      const racing = await server.call('POST', REFRESH, { body: { refresh: pair.refresh } });
      expect(racing.status).toBe(200);
      // the thief replays it later
      clockOffset = 31_000;
      const replay = await server.call('POST', REFRESH, { body: { refresh: pair.refresh } });
      expect(replay.status).toBe(401);
      expect(replay.body.code).toBe('token_not_valid');
      // the whole family is gone: the rightful owner's newer tokens too
      expect((await server.call('POST', REFRESH, { body: { refresh: first.body.refresh } })).status).toBe(401);
      expect((await server.call('GET', '/api/platform/userId', { token: first.body.access })).status).toBe(401);
      // another login is a new session and works
      const fresh = await login(server, u.email, u.password);
      expect((await server.call('GET', '/api/platform/userId', { token: fresh.access })).status).toBe(200);
    });

    it('log out revokes the session: its access and refresh tokens stop working', async () => {
      const u = await createUser(server);
      const pair = await login(server, u.email, u.password);
      expect((await server.call('GET', '/api/platform/userId', { token: pair.access })).status).toBe(200);
      const out = await server.call('POST', '/api/platform/logout', { token: pair.access, body: { refresh: pair.refresh } });
      expect(out.status).toBe(200);
      expect((await server.call('GET', '/api/platform/userId', { token: pair.access })).status).toBe(401);
      expect((await server.call('POST', REFRESH, { body: { refresh: pair.refresh } })).status).toBe(401);
    });
  });

  describe('6. every write route is rate-limited per account and per address', () => {
    it('counts account updates per account (WRITE_RATE_LIMIT_PER_USER)', async () => {
      const limited = await startTestServer({ env: { WRITE_RATE_LIMIT_PER_USER: '3', WRITE_RATE_LIMIT_PER_ADDRESS: '100' } });
      try {
        const u = await createUser(limited);
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await limited.call('PUT', userUrl(u.id), { token: u.access, body: details() })).status);
        expect(statuses).toEqual([200, 200, 200, 429]);
        // another account from the same address is not limited by the first one's count
        const v = await createUser(limited);
        expect((await limited.call('PUT', userUrl(v.id), { token: v.access, body: details() })).status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('counts per address too, signed in or not (WRITE_RATE_LIMIT_PER_ADDRESS)', async () => {
      const limited = await startTestServer({ env: { WRITE_RATE_LIMIT_PER_USER: '100', WRITE_RATE_LIMIT_PER_ADDRESS: '2' } });
      try {
        const a = await createUser(limited);
        const b = await createUser(limited);
        const statuses: number[] = [];
        for (const u of [a, b, a])
          statuses.push((await limited.call('POST', '/api/platform/votes', { token: u.access, body: { combination_id: 999999 } })).status);
        expect(statuses.slice(0, 2)).not.toContain(429);
        expect(statuses[2]).toBe(429);
      } finally {
        await limited.close();
      }
    });
  });
});

describe('3. DATA_DIR, database files and the outbox are private', () => {
  it('fixes an existing readable folder on start and writes database files 0600 in 0700 folders', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'flowmatic-modes-'));
    try {
      mkdirSync(path.join(dir, 'old'), { recursive: true });
      writeFileSync(path.join(dir, 'old', 'leak.txt'), 'secret');
      chmodSync(path.join(dir, 'old', 'leak.txt'), 0o644);
      chmodSync(path.join(dir, 'old'), 0o755);
      chmodSync(dir, 0o755);
      const db = await openDatabase({ dataDir: dir });
      await db.schema.createTable('t').addColumn('hash', 'text').execute();
      await db
        .insertInto('t' as never)
        .values({ hash: '$argon2id$...' } as never)
        .execute();
      await db.destroy();
      expect(mode(dir)).toBe(0o700);
      for (const p of walk(dir)) expect([p, mode(p)]).toEqual([p, statSync(p).isDirectory() ? 0o700 : 0o600]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes outbox mail (live reset links) 0600 in a 0700 folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'flowmatic-outbox-'));
    try {
      const outbox = new OutboxMailer(path.join(dir, 'outbox'), 'x@localhost');
      await outbox.send(passwordResetEmail('a@example.com', 'Ann', 'http://localhost/reset?token=t'));
      expect(mode(path.join(dir, 'outbox'))).toBe(0o700);
      for (const f of readdirSync(path.join(dir, 'outbox'))) expect(mode(path.join(dir, 'outbox', f))).toBe(0o600);
      chmodSync(path.join(dir, 'outbox'), 0o755);
      expect(secureDirectory(dir)).toBe(1); // an older version's readable folder is fixed on start
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('5. forgetPassword does the same work for known and unknown addresses', () => {
  it('queues exactly one job of the same kind either way, and reads no account in the request', async () => {
    const server = await startTestServer();
    try {
      const u = await createUser(server);
      const queue = server.container.get<JobQueue>(T.JobQueue);
      // the start-up prune of session records queues the next hour's run in the background: let
      // it, so that the spy below sees the request's job alone
      const next = `${PRUNE_SESSIONS_JOB}.${Math.floor(server.container.get(T.Clock).now() / PRUNE_SESSIONS_EVERY_MS) + 1}`;
      // (the database queue keys a job by name/jobId, BullMQ by jobId)
      const queued = async () => (await queue.get(`${PRUNE_SESSIONS_JOB}/${next}`)) ?? (await queue.get(next));
      for (const deadline = Date.now() + 10_000; !(await queued()) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
      expect(await queued()).toBeDefined();
      const add = jest.spyOn(queue, 'add');
      const select = jest.spyOn(server.db, 'selectFrom');
      const replies: unknown[] = [];
      for (const email of [u.email, 'nobody-here@example.com']) {
        // the job is held back here, so any account lookup would have to be the request's own
        add.mockClear().mockResolvedValueOnce('held');
        select.mockClear();
        const res = await server.call('POST', '/api/platform/forgetPassword', { body: { email } });
        expect(res.status).toBe(200);
        replies.push(res.body);
        expect(add.mock.calls).toEqual([[PASSWORD_RESET_JOB, { email: email.toLowerCase() }, { attempts: 3, backoffMs: 2000 }]]);
        expect(select).not.toHaveBeenCalled();
      }
      expect(replies[0]).toEqual(replies[1]);
      add.mockRestore();
      select.mockRestore();
      // the job decides: one mail to the known address, none to the unknown one
      await server.call('POST', '/api/platform/forgetPassword', { body: { email: u.email } });
      await server.call('POST', '/api/platform/forgetPassword', { body: { email: 'nobody-here@example.com' } });
      await server.mailer.waitFor(u.email);
      await new Promise((r) => setTimeout(r, 300));
      expect(server.mailer.sent.filter((m) => m.to === 'nobody-here@example.com')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('8. security headers', () => {
  it('sends a strict CSP without inline script, frame-ancestors self, nosniff and a referrer policy', async () => {
    const server = await startTestServer();
    try {
      const res = await server.call('GET', '/api/platform/solutions');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("object-src 'none'");
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1];
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    } finally {
      await server.close();
    }
  });

  it('allows the analytics hosts in production only', () => {
    const prod = loadConfig({ NODE_ENV: 'production', SECRET_KEY: SECRET, ANALYTICS_SCRIPT_URL: 'https://analytics.example.com/a.js' });
    const dev = loadConfig({ SECRET_KEY: SECRET, ANALYTICS_SCRIPT_URL: 'https://analytics.example.com/a.js' });
    expect(prod.cspScriptHosts).toEqual(['https://analytics.example.com']);
    expect(dev.cspScriptHosts).toEqual([]);
  });
});

describe('10. source maps, token expiry, names in e-mails', () => {
  it('does not serve source maps in production unless asked', async () => {
    const prod = await startTestServer({ env: { NODE_ENV: 'production' } });
    const asked = await startTestServer({ env: { NODE_ENV: 'production', SERVE_SOURCE_MAPS: 'true' } });
    try {
      expect((await prod.call('GET', '/assets/main.0123abcd.js.map')).status).toBe(404);
      expect(prod.config.serveSourceMaps).toBe(false);
      expect(asked.config.serveSourceMaps).toBe(true);
    } finally {
      await prod.close();
      await asked.close();
    }
  });

  it('refuses a correctly signed token without exp', async () => {
    const server = await startTestServer();
    try {
      const u = await createUser(server);
      const forever = await new SignJWT({ token_type: 'access', ver: 0 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(u.id))
        .setJti('no-exp')
        .setIssuedAt()
        .sign(new TextEncoder().encode(SECRET));
      expect((await server.call('GET', '/api/platform/userId', { token: forever })).status).toBe(401);
      const tokens = server.container.get<TokenService>(T.TokenService);
      await expect(tokens.verify(forever, 'access')).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('puts no URL or markup of a name in the greeting', () => {
    expect(greetingName('http://evil.example/login now')).toBe('there');
    expect(greetingName('evil.com')).toBe('there');
    expect(greetingName('<b>Boss</b>')).toBe('there');
    expect(greetingName("Anne-Marie O'Neil")).toBe('Anne-Marie');
    expect(passwordResetEmail('a@example.com', 'www.phish.example', 'http://x/reset').text.startsWith('Hi there,')).toBe(true);
  });
});
