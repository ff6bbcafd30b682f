/**
 * Issue 21, low: the sandbox login redirected to any address (and handed it a code). Now it signs
 * in only back to the registered redirect URI (this server's Connect callback), as Google and
 * Xero do.
 */
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { startTestServer, type TestServer } from '../../support/server';

describe('d2: the sandbox login redirects only to the registered redirect URI', () => {
  let server: TestServer;
  const plugin = createConnectorsPlugin();
  const sandbox = () => plugin.sandbox()!;
  const registered = 'http://localhost:3000/api/connections/callback';
  const params = (redirect: string, provider: 'google' | 'xero') =>
    new URLSearchParams({
      client_id: sandbox().clients[provider].clientId,
      redirect_uri: redirect,
      response_type: 'code',
      state: 's',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      scope: 'x',
    });
  const paths = { google: '/google/o/oauth2/v2/auth', xero: '/xero/identity/connect/authorize' };

  beforeAll(async () => {
    server = await startTestServer({ plugins: [plugin], env: { SANDBOX_PROVIDERS: 'true' } });
  });
  afterAll(() => server.close());

  it.each(['google', 'xero'] as const)('%s: an unregistered redirect_uri gets a 400 page, and the decision never redirects there', async (provider) => {
    for (const evil of [
      'https://evil.example/steal',
      'http://localhost:3000/api/connections/callback/../../evil',
      `${registered}?x=1`,
      'javascript:alert(1)',
    ]) {
      const page = await fetch(`${sandbox().url}${paths[provider]}?${params(evil, provider)}`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('redirect_uri is not registered for this client');
      const form = params(evil, provider);
      form.set('account', 'someone@example.com');
      form.set('decision', 'allow');
      const decided = await fetch(`${sandbox().url}${paths[provider]}/decision`, { method: 'POST', body: form, redirect: 'manual' });
      expect(decided.status).toBe(400);
      expect(decided.headers.get('location')).toBeNull();
      expect(await decided.text()).toBe('redirect_uri is not registered for this client.');
    }
  });

  it.each(['google', 'xero'] as const)('%s: the registered callback still signs in', async (provider) => {
    const page = await fetch(`${sandbox().url}${paths[provider]}?${params(registered, provider)}`);
    expect(page.status).toBe(200);
    const form = params(registered, provider);
    form.set('account', 'someone@example.com');
    form.set('decision', 'allow');
    const decided = await fetch(`${sandbox().url}${paths[provider]}/decision`, { method: 'POST', body: form, redirect: 'manual' });
    expect(decided.status).toBe(302);
    expect(decided.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/api\/connections\/callback\?state=s&code=code_/);
  });
});
