import http from 'node:http';
import https from 'node:https';
import { createUser, type TestServer, type TestUser } from '../../support/server';
import { nextSetupStatus, type SetupFacts } from '../../../src/server/automation';
import { verifyWidgetToken } from '../../../src/server/provider';
import { C, engineServer, readyRecipe, recordOf, startRecipe, waitForJob, waitForStatus, webhookPath } from './support';

jest.setTimeout(30_000);

describe('the setup status of spec section 4', () => {
  const starter: SetupFacts = { starterRecipe: true, completesOnStart: false };
  const basic: SetupFacts = { starterRecipe: true, completesOnStart: true };
  const nine: SetupFacts = { starterRecipe: false, completesOnStart: true };
  const plain: SetupFacts = { starterRecipe: false, completesOnStart: false };

  it.each([
    // [facts, from, event, to]
    [starter, 'no started', 'setup-call', 'started'],
    [starter, 'started', 'setup-call', 'started'],
    [starter, 'ready', 'setup-call', 'ready'],
    [starter, 'started', 'starter-succeeded', 'ready'],
    [starter, 'no started', 'starter-succeeded', 'ready'],
    [starter, 'ready', 'recipe-started', 'complete'],
    [starter, 'no started', 'recipe-started', 'no started'],
    [starter, 'started', 'recipe-started', 'started'],
    [basic, 'no started', 'setup-call', 'started'],
    [basic, 'started', 'starter-succeeded', 'complete'],
    [basic, 'started', 'recipe-started', 'complete'],
    [nine, 'no started', 'setup-call', 'complete'],
    [nine, 'no started', 'recipe-started', 'complete'],
    [plain, 'no started', 'setup-call', 'ready'],
    [plain, 'no started', 'recipe-started', 'complete'],
    [plain, 'ready', 'recipe-started', 'complete'],
    [starter, 'complete', 'setup-call', 'complete'],
    [starter, 'complete', 'starter-succeeded', 'complete'],
    [nine, 'complete', 'recipe-started', 'complete'],
  ] as const)('%o: %s + %s → %s', (facts, from, event, to) => {
    expect(nextSetupStatus(from, event, facts)).toBe(to);
  });
});

describe('the provider calls of spec section 7, answered by the engine', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const fetchSpy = jest.spyOn(globalThis, 'fetch');
  const httpSpy = jest.spyOn(http, 'request');
  const httpsSpy = jest.spyOn(https, 'request');

  beforeAll(async () => {
    server = await engineServer();
    alice = await createUser(server);
    bob = await createUser(server);
  });
  afterAll(async () => {
    await server.close();
    fetchSpy.mockRestore();
    httpSpy.mockRestore();
    httpsSpy.mockRestore();
  });
  beforeEach(() => {
    fetchSpy.mockClear();
    httpSpy.mockClear();
    httpsSpy.mockClear();
  });
  afterEach(() => {
    // no call of this suite reaches outside the process
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(httpSpy).not.toHaveBeenCalled();
    expect(httpsSpy).not.toHaveBeenCalled();
  });

  const put = (user: TestUser, body: unknown) => server.call('PUT', '/api/platform/proxy', { token: user.access, body });
  const recipeOf = (user: TestUser, id: number) =>
    server.call('GET', `/api/platform/proxy?url=api/managed_users/${user.workatoId}/recipes/${id}`, { token: user.access });

  it("starts and stops the caller's recipe through PUT /api/platform/proxy", async () => {
    const rec = await recordOf(server, alice, C.pipeline);
    expect((await recipeOf(alice, rec.recipe_id)).body.running).toBe(false);
    const start = await startRecipe(server, alice, rec.recipe_id);
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ success: true, running: true });
    expect((await recipeOf(alice, rec.recipe_id)).body.running).toBe(true);
    expect((await recordOf(server, alice, C.pipeline)).status).toBe('complete'); // no starter: complete on start
    const combos = await server.call('GET', '/api/platform/combinations', { token: alice.access });
    expect(combos.body.find((c: any) => c.id === C.pipeline)).toMatchObject({ recipe_id: rec.recipe_id, running: true });
    const stop = await startRecipe(server, alice, rec.recipe_id, 'stop');
    expect(stop.body).toEqual({ success: true, running: false });
    expect((await recipeOf(alice, rec.recipe_id)).body.running).toBe(false);
    expect((await recordOf(server, alice, C.pipeline)).status).toBe('complete');
  });

  it("refuses another user's workato id (403) and another user's recipe id (404)", async () => {
    const bobs = await recordOf(server, bob, C.pipeline);
    const other = await put(alice, { url: `api/managed_users/${bob.workatoId}/recipes/${bobs.recipe_id}/start` });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ status: 'error', message: 'You can only reach your own automation workspace.' });
    const notMine = await put(alice, { url: `api/managed_users/${alice.workatoId}/recipes/${bobs.recipe_id}/start` });
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe('Recipe not found.');
    expect((await recipeOf(bob, bobs.recipe_id)).body.running).toBe(false);
  });

  it.each([
    'api/managed_users/SELF/recipes/RID',
    'api/managed_users/SELF/connections',
    'api/managed_users/SELF/recipes/RID/start/',
    'api/managed_users/SELF/recipes/RID/restart',
    'api/managed_users/SELF/recipes/RID/start?x=1',
    'api/managed_users/SELF/recipes/RID/../RID/start',
    '/api/managed_users/SELF/recipes/RID/start',
    'https://evil.example/api/managed_users/SELF/recipes/RID/start',
    'api/managed_users/SELF/recipes/RID/start%00',
    'api/managed_users/SELF/recipes/RID%2Fstart',
    '',
  ])('refuses the PUT path %s without fetching anything', async (raw) => {
    const rec = await recordOf(server, alice, C.plain);
    const url = raw.replace(/SELF/g, String(alice.workatoId)).replace(/RID/g, String(rec.recipe_id));
    const res = await put(alice, { url });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The proxy only accepts api/managed_users/{your id}/recipes/{recipe id}/start or /stop in a PUT.');
  });

  it('refuses a PUT without a body or a url, and without a login', async () => {
    expect((await put(alice, undefined)).status).toBe(400);
    expect((await put(alice, { url: 5 })).status).toBe(400);
    expect((await server.call('PUT', '/api/platform/proxy', { body: { url: 'x' } })).status).toBe(401);
  });

  it('signs a short-lived connection-widget token for the caller only', async () => {
    const res = await server.call('POST', '/api/platform/workatoToken', { token: alice.access, body: { WK_USER_ID: alice.workatoId } });
    expect(res.status).toBe(200);
    expect(await verifyWidgetToken(server.config.secretKey, res.body.access_token)).toEqual({ workatoId: alice.workatoId, userId: alice.id });
    const ttl = (new Date(res.body.expires_at).getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(500);
    expect(ttl).toBeLessThanOrEqual(600);
    await expect(verifyWidgetToken(server.config.secretKey, alice.access)).rejects.toThrow('The connection token is invalid or has expired.');
    expect((await server.call('POST', '/api/platform/workatoToken', { token: alice.access, body: { WK_USER_ID: String(alice.workatoId) } })).status).toBe(200);
    expect((await server.call('POST', '/api/platform/workatoToken', { token: alice.access, body: { WK_USER_ID: bob.workatoId } })).status).toBe(403);
    const missing = await server.call('POST', '/api/platform/workatoToken', { token: alice.access, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('WK_USER_ID must be your workato id.');
  });

  it('sets the setup status with workatoRecipeStatus, forward only', async () => {
    const rec = await recordOf(server, alice, C.starter);
    const set = (status: unknown, id = rec.recipe_id, user = alice) =>
      server.call('PUT', `/api/platform/workatoRecipeStatus/${id}/`, { token: user.access, body: { status } });
    const ok = await set('started');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'success', workato_recipe: { recipe_id: rec.recipe_id, status: 'started' } });
    expect((await server.call('PUT', `/api/platform/workatoRecipeStatus/${rec.recipe_id}`, { token: alice.access, body: { status: 'ready' } })).status).toBe(
      200,
    );
    const back = await set('no started');
    expect(back.status).toBe(409);
    expect(back.body.message).toBe("The setup status cannot go back from 'ready' to 'no started'.");
    const bad = await set('done');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("The status must be one of 'no started', 'started', 'ready', 'complete'.");
    expect((await set('complete', rec.recipe_id, bob)).status).toBe(404);
  });

  describe('the setup flow', () => {
    it('starter combination: start the starter, the setup call → started, the starter run → ready, start → complete', async () => {
      const user = await createUser(server);
      const starter = await recordOf(server, user, 0);
      const rec = await recordOf(server, user, C.starter);
      expect(rec.status).toBe('no started');
      expect((await startRecipe(server, user, starter.recipe_id)).body).toEqual({ success: true, running: true });
      expect((await recordOf(server, user, 0)).status).toBe('started');
      const call = await server.call('POST', webhookPath(rec), {
        body: { customer_id: user.id, email: user.email, instance: 66075, recipe_id: starter.recipe_id, combination_id: C.starter },
      });
      expect(call.status).toBe(200);
      expect(call.body).toEqual({ status: 'ok' });
      expect((await recordOf(server, user, C.starter)).status).toMatch(/^(started|ready)$/);
      const jobs = await server.call('GET', `/api/automation/recipes/${starter.recipe_id}/jobs`, { token: user.access });
      expect(jobs.body.jobs).toHaveLength(1);
      const { job, steps } = await waitForJob(server, user, jobs.body.jobs[0].id);
      expect(job.status).toBe('succeeded');
      expect(job.trigger_summary).toMatch(/^Setup of "Test recipe 9005": Setup with 4 fields/);
      expect(steps.map((s: any) => `${s.provider}:${s.action}`)).toEqual(['webhook:webhook_received', 'flowmatic:prepare_setup']);
      expect((await waitForStatus(server, user, C.starter, 'ready')).status).toBe('ready');
      expect((await waitForStatus(server, user, 0, 'complete')).status).toBe('complete');
      // calling again changes nothing and runs nothing more
      await server.call('POST', webhookPath(rec), {
        body: { customer_id: user.id, email: user.email, instance: 66075, recipe_id: starter.recipe_id, combination_id: C.starter },
      });
      expect((await server.call('GET', `/api/automation/recipes/${starter.recipe_id}/jobs`, { token: user.access })).body.jobs).toHaveLength(1);
      await startRecipe(server, user, rec.recipe_id);
      expect((await recordOf(server, user, C.starter)).status).toBe('complete');
    });

    it('a basic variant goes to complete once its starter run succeeds; a combination that completes on start needs no run', async () => {
      const user = await createUser(server);
      const starter = await recordOf(server, user, 0);
      const rec = await recordOf(server, user, C.basic);
      await server.call('POST', webhookPath(rec), {
        body: { customer_id: user.id, email: user.email, instance: 66075, recipe_id: starter.recipe_id, combination_id: C.basic },
      });
      // the setup call started the starter itself
      expect((await recordOf(server, user, 0)).status).not.toBe('no started');
      const jobs = await server.call('GET', `/api/automation/recipes/${starter.recipe_id}/jobs`, { token: user.access });
      await waitForJob(server, user, jobs.body.jobs[0].id);
      expect((await waitForStatus(server, user, C.basic, 'complete')).status).toBe('complete');

      const plain = await recordOf(server, user, C.plain);
      const call = await server.call('POST', webhookPath(plain), {
        body: { customer_id: user.id, email: user.email, instance: 66075, recipe_id: plain.recipe_id, combination_id: C.plain },
      });
      expect(call.body).toEqual({ status: 'ok' });
      expect((await recordOf(server, user, C.plain)).status).toBe('ready');
    });

    it('refuses a setup call for another combination or recipe', async () => {
      const user = await createUser(server);
      const rec = await recordOf(server, user, C.starter);
      const wrong = await server.call('POST', webhookPath(rec), {
        body: { customer_id: 1, email: 'x', instance: 1, recipe_id: rec.recipe_id, combination_id: C.plain },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(`This webhook belongs to combination ${C.starter}, not ${C.plain}.`);
      const otherRecipe = await recordOf(server, alice, C.starter);
      const stranger = await server.call('POST', webhookPath(rec), {
        body: { customer_id: 1, email: 'x', instance: 1, recipe_id: otherRecipe.recipe_id, combination_id: C.starter },
      });
      expect(stranger.status).toBe(400);
      expect((await recordOf(server, user, C.starter)).status).toBe('no started');
    });
  });
});

describe('the chat announcement of a start', () => {
  it('posts the workato id, recipe id and e-mail to CHAT_WEBHOOK_URL once per start; failures are only logged', async () => {
    const server = await engineServer({ env: { CHAT_WEBHOOK_URL: 'https://chat.example/hooks/abc' } });
    const fetchSpy = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'));
    try {
      const { user, rec } = await readyRecipe(server, C.plain);
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      const [url, init] = fetchSpy.mock.calls[0];
      expect(url).toBe('https://chat.example/hooks/abc');
      expect(JSON.parse(String(init!.body))).toMatchObject({ workato_id: user.workatoId, recipe_id: rec.recipe_id, email: user.email });
      // starting a running recipe again announces nothing new
      await startRecipe(server, user, rec.recipe_id);
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      fetchSpy.mockRejectedValueOnce(new Error('network down'));
      const other = await readyRecipe(server, C.pipeline, user);
      expect(other.rec.recipe_id).toBeGreaterThan(0);
    } finally {
      fetchSpy.mockRestore();
      await server.close();
    }
  });
});
