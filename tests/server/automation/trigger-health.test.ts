import net from 'node:net';
import { createUser, type TestServer } from '../../support/server';
import { C, engineServer, readyRecipe, recordOf, startRecipe } from './support';

jest.setTimeout(60_000);

/**
 * A trigger that cannot listen is reported, with the reason, for the setup screen (issue 19): the
 * e-mail trigger while the inbound mail listener could not take its port; a webhook trigger
 * always listens.
 */
describe('trigger health', () => {
  let server: TestServer;
  let blocker: net.Server;

  beforeAll(async () => {
    // the port the inbound mail listener wants is already taken
    blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    server = await engineServer({ env: { INBOUND_SMTP_PORT: String(port) } });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((r) => blocker.close(r));
  });

  it('the e-mail trigger reads not working, naming why, while its port is taken; the webhook trigger works', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const mail = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/trigger-health`, { token: user.access });
    expect(mail.status).toBe(200);
    expect(mail.body.health).toMatchObject({ trigger: 'manual_email:email_received', working: false });
    expect(mail.body.health.reason).toMatch(/^The server cannot receive e-mail: /);
    const hook = await recordOf(server, user, C.pipeline);
    const web = await server.call('GET', `/api/automation/recipes/${hook.recipe_id}/trigger-health`, { token: user.access });
    expect(web.body.health).toEqual({ trigger: 'webhook:webhook_received', working: true, reason: null });
  });

  it("the dashboard's list: each running recipe of the caller with its combination, workflow and health; stopped ones and other users' are left out", async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const { rec: hook } = await readyRecipe(server, C.pipeline, user);
    await recordOf(server, user, C.plain); // never started
    const other = await readyRecipe(server, C.inbound);
    const res = await server.call('GET', '/api/automation/trigger-health', { token: user.access });
    expect(res.status).toBe(200);
    expect(res.body.recipes).toHaveLength(2);
    const byId = (id: number) => res.body.recipes.find((r: { recipe_id: number }) => r.recipe_id === id);
    const [mail, web] = [byId(rec.recipe_id), byId(hook.recipe_id)];
    expect(mail).toMatchObject({
      recipe_id: rec.recipe_id,
      combination_id: C.inbound,
      workflow_id: 9000,
      combination_name: `Test combination ${C.inbound}`,
      trigger: 'manual_email:email_received',
      working: false,
    });
    expect(mail.reason).toMatch(/^The server cannot receive e-mail: /);
    expect(web).toEqual({
      recipe_id: hook.recipe_id,
      combination_id: C.pipeline,
      workflow_id: 9000,
      combination_name: `Test combination ${C.pipeline}`,
      trigger: 'webhook:webhook_received',
      working: true,
      reason: null,
    });
    expect(res.body.recipes.some((r: { recipe_id: number }) => r.recipe_id === other.rec.recipe_id)).toBe(false);
    // stopped: off the list
    await startRecipe(server, user, hook.recipe_id, 'stop');
    const after = await server.call('GET', '/api/automation/trigger-health', { token: user.access });
    expect(after.body.recipes.map((r: { recipe_id: number }) => r.recipe_id)).toEqual([rec.recipe_id]);
    expect((await server.call('GET', '/api/automation/trigger-health')).status).toBe(401);
  });

  it("another user's recipe is not found", async () => {
    const { rec } = await readyRecipe(server, C.inbound);
    const other = await createUser(server);
    expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/trigger-health`, { token: other.access })).status).toBe(404);
  });
});
