jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 21, high: the Connect link attached a victim's account to the attacker's workspace. The
 * attacker's link (carrying the attacker's widget token) opened in the victim's browser, the
 * victim approving the consent: the callback stored the victim's grant under the attacker.
 * Now the Connect finishes only for the signed-in user who started it.
 */
import { sql } from 'kysely';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { callbackOnly, confirm, consent, deliver, widgetToken } from '../connections/connect-flow';

describe('d2: a Connect link is bound to the signed-in user who started it', () => {
  let server: TestServer;
  const plugin = createConnectorsPlugin();
  let attacker: TestUser;
  let victim: TestUser;
  const sandbox = () => plugin.sandbox()!;
  const grantsOf = (account: string) =>
    Object.values(sandbox().state.read().refresh)
      .concat(Object.values(sandbox().state.read().access))
      .filter((g) => g.account === account);
  const connectionOf = async (user: TestUser, provider: string) => {
    const res = await server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${await widgetToken(server, user)}` } });
    return (res.body.result as Array<{ provider: string; authorization_status: string | null; account_name: string | null }>).find(
      (c) => c.provider === provider,
    )!;
  };
  const credentials = async () => (await sql<{ n: number }>`select count(*)::int as n from connection_credentials`.execute(server.db)).rows[0].n;

  beforeAll(async () => {
    server = await startTestServer({ plugins: [plugin], env: { SANDBOX_PROVIDERS: 'true' } });
    attacker = await createUser(server);
    victim = await createUser(server);
  });
  afterAll(() => server.close());

  it.each(['google_drive', 'google_sheets', 'xero'])('%s: the victim signed in as someone else is refused, no grant is stored anywhere', async (provider) => {
    const account = provider === 'xero' ? 'Victim Trading Ltd' : 'victim@example.com';
    // the attacker's link, opened and approved in the victim's browser
    const steps = await consent(server, await widgetToken(server, attacker), provider, { account });
    const back = await callbackOnly(server, steps.callback, steps.cookie);
    expect(Object.fromEntries(back)).toEqual({ result: 'confirm', provider });
    // the done page confirms with the victim's session
    const res = await confirm(server, steps.cookie, victim.access);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      status: 'error',
      reason: 'other_account',
      message:
        'This Connect was started by another Flowmatic account, so nothing was connected. Sign in as the account that pressed Connect, then press Connect again.',
    });
    expect(([] as string[]).concat(res.headers['set-cookie'] as string)).toContainEqual(
      expect.stringMatching(/^fm_connect=; Path=\/api\/connections; Max-Age=0/),
    );
    // the code was never redeemed: the provider issued no token, the attacker has no connection
    expect(grantsOf(account)).toEqual([]);
    expect(await connectionOf(attacker, provider)).toMatchObject({ authorization_status: null, account_name: null });
    expect(await connectionOf(victim, provider)).toMatchObject({ authorization_status: null, account_name: null });
    expect(await credentials()).toBe(0);
    // the attacker confirming with its own session but without the victim's browser cookie gets nothing either
    expect((await confirm(server, undefined, attacker.access)).body.reason).toBe('not_started');
    expect((await confirm(server, steps.cookie, attacker.access)).body.reason).toBe('not_started');
    expect(await credentials()).toBe(0);
  });

  it('nobody signed in: the confirmation is refused (401) and nothing is stored', async () => {
    const steps = await consent(server, await widgetToken(server, attacker), 'google_drive', { account: 'victim@example.com' });
    expect((await callbackOnly(server, steps.callback, steps.cookie)).get('result')).toBe('confirm');
    const res = await confirm(server, steps.cookie, undefined);
    expect(res.status).toBe(401);
    expect(grantsOf('victim@example.com')).toEqual([]);
    expect(await credentials()).toBe(0);
  });

  it('the callback itself stores nothing: no code is redeemed before the signed-in user confirms', async () => {
    const steps = await consent(server, await widgetToken(server, victim), 'google_sheets', { account: 'victim@example.com' });
    await callbackOnly(server, steps.callback, steps.cookie);
    expect(grantsOf('victim@example.com')).toEqual([]);
    expect(await credentials()).toBe(0);
    const pending = await sql<Record<string, unknown>>`select * from oauth_pending`.execute(server.db);
    // the parked answer is sealed: the code is not readable in the database
    expect(JSON.stringify(pending.rows)).not.toContain(steps.callback.searchParams.get('code')!);
    // the provider's redirect replayed is refused (the answer is already parked)
    expect(Object.fromEntries(await callbackOnly(server, steps.callback, steps.cookie))).toEqual({ result: 'error', reason: 'not_started' });
    // the user who started it, signed in, finishes it, once
    const res = await confirm(server, steps.cookie, victim.access);
    expect(res.body).toEqual({ status: 'success', provider: 'google_sheets', name: 'Google Sheets', account: 'victim@example.com' });
    expect((await confirm(server, steps.cookie, victim.access)).body.reason).toBe('not_started');
    expect(await credentials()).toBe(1);
  });

  it('the user who pressed Connect, signed in in that browser, is connected', async () => {
    const steps = await consent(server, await widgetToken(server, victim), 'google_drive', { account: 'victim@example.com' });
    const done = await deliver(server, steps.callback, steps.cookie, victim.access);
    expect(Object.fromEntries(done)).toEqual({ provider: 'google_drive', result: 'connected', account: 'victim@example.com' });
    expect(await connectionOf(victim, 'google_drive')).toMatchObject({ authorization_status: 'success', account_name: 'victim@example.com' });
    expect(await connectionOf(attacker, 'google_drive')).toMatchObject({ authorization_status: null });
    expect(await connectionOf(attacker, 'google_sheets')).toMatchObject({ authorization_status: null });
  });
});
