import net from 'node:net';
import { createUser, type TestServer } from '../../support/server';
import { C, engineServer, readyRecipe, recordOf } from './support';

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

  it("another user's recipe is not found", async () => {
    const { rec } = await readyRecipe(server, C.inbound);
    const other = await createUser(server);
    expect((await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/trigger-health`, { token: other.access })).status).toBe(404);
  });
});
