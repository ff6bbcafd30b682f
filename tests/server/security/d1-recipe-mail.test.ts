import net from 'node:net';
import nodemailer from 'nodemailer';
import { createUser, type TestServer } from '../../support/server';
import { InboundMail } from '../../../src/server/automation';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { C, combination, engineServer, readyRecipe, recordOf, sleep, waitForJob } from '../automation/support';

jest.setTimeout(60_000);

/** manual_email → email:send with no params: the send step takes its "to" from the trigger's fields. */
const MAIL_THEN_SEND = 9100;

/**
 * Recipe mail abuse (security review round three): sequential, enumerable recipe addresses; any
 * running recipe took mail whatever its trigger; refusals told "no such recipe" from "stopped";
 * a chosen To: header steered the recipe's own e-mail to a third party; 1,000 attachments or 50
 * sessions shut the listener out. Everything through a real SMTP listener.
 */
describe('recipe mail: unguessable addresses, e-mail recipes only, bounded sessions', () => {
  let server: TestServer;
  let port: number;
  let transport: ReturnType<typeof nodemailer.createTransport>;

  beforeAll(async () => {
    server = await engineServer();
    await server.db
      .insertInto('combinations')
      .values({
        id: MAIL_THEN_SEND,
        ...combinationRow(
          combination(MAIL_THEN_SEND, [
            { kind: 'trigger', provider: 'manual_email', action: 'email_received' },
            { kind: 'action', provider: 'email', action: 'send', params: { subject: 'Your report', text: 'Report: {{text}}' } },
          ]),
          'engine-test',
          false,
          new Date(),
        ),
      })
      .execute();
    port = await server.container.get(InboundMail).start({ port: 0, host: '127.0.0.1' });
    transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: false });
  });
  afterAll(async () => {
    transport.close();
    await server.close();
  });

  const addressOf = async (user: { access: string }, recipeId: number): Promise<string> =>
    (await server.call('GET', `/api/automation/recipes/${recipeId}`, { token: user.access })).body.recipe.inbound_email;
  const jobsOf = async (user: { access: string }, recipeId: number): Promise<any[]> =>
    (await server.call('GET', `/api/automation/recipes/${recipeId}/jobs`, { token: user.access })).body.jobs;
  const refusalOf = async (to: string): Promise<{ responseCode?: number; response?: string }> => {
    try {
      await transport.sendMail({ from: 'attacker@evil.example', to, subject: 'x', text: 'y' });
    } catch (e) {
      return e as { responseCode?: number; response?: string };
    }
    throw new Error(`mail to ${to} was accepted`);
  };

  it('gives each recipe a secret address, not its id, and refuses the id address', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const address = await addressOf(user, rec.recipe_id);
    expect(address).toMatch(/^recipe-[0-9a-f]{32}@inbound\.localhost$/);
    expect(address).not.toContain(`recipe-${rec.recipe_id}@`);
    expect((await refusalOf(`recipe-${rec.recipe_id}@inbound.localhost`)).responseCode).toBe(550);
    expect((await jobsOf(user, rec.recipe_id)).length).toBe(0);
  });

  it('answers the same refusal for no such address, a stopped recipe and a recipe not started by e-mail', async () => {
    const owner = await createUser(server);
    const stopped = await recordOf(server, owner, C.inbound);
    const { user: other, rec: webhookRecipe } = await readyRecipe(server, C.plain);
    const candidates = [
      'recipe-0123456789abcdef0123456789abcdef@inbound.localhost',
      await addressOf(owner, stopped.recipe_id),
      await addressOf(other, webhookRecipe.recipe_id),
    ];
    const refusals = await Promise.all(candidates.map(refusalOf));
    expect(refusals.map((r) => r.responseCode)).toEqual([550, 550, 550]);
    expect(new Set(refusals.map((r) => r.response?.replace(/<[^>]*>/g, ''))).size).toBe(1);
    expect(refusals[0].response).toContain('No workflow receives e-mail at this address');
    expect((await jobsOf(other, webhookRecipe.recipe_id)).length).toBe(0);
  });

  it('rotates the address: the new one works, the old one is refused', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const old = await addressOf(user, rec.recipe_id);
    const rotated = await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/inbound-email`, { token: user.access });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.inbound_email;
    expect(fresh).toMatch(/^recipe-[0-9a-f]{32}@inbound\.localhost$/);
    expect(fresh).not.toBe(old);
    expect(await addressOf(user, rec.recipe_id)).toBe(fresh);
    expect((await refusalOf(old)).responseCode).toBe(550);
    const info = await transport.sendMail({ from: 'a@b.example', to: fresh, subject: 'Rotated', text: 'hello' });
    expect(info.accepted).toEqual([fresh]);
    // another user cannot rotate it
    const stranger = await createUser(server);
    expect((await server.call('POST', `/api/automation/recipes/${rec.recipe_id}/inbound-email`, { token: stranger.access })).status).toBe(404);
  });

  it("never sends the recipe's e-mail to an address the sender wrote in To:", async () => {
    const { user, rec } = await readyRecipe(server, MAIL_THEN_SEND);
    const address = await addressOf(user, rec.recipe_id);
    await transport.sendMail({
      envelope: { from: 'attacker@evil.example', to: [address] },
      from: 'attacker@evil.example',
      to: 'victim@third-party.example',
      subject: 'Statement',
      text: 'attacker content',
    });
    let jobs: any[] = [];
    for (let i = 0; i < 300 && !jobs.length; i++) {
      jobs = await jobsOf(user, rec.recipe_id);
      await sleep(30);
    }
    const { job, steps } = await waitForJob(server, user, jobs[0].id);
    // Issue 19: a run started by mail writes only to the owner (or an address the recipe names), so
    // the step names no address of its own and the report goes to the owner, never to the To: header.
    expect(job.status).toBe('succeeded');
    expect(steps[1].output).toMatchObject({ sent: true, to: user.email });
    expect(server.mailer.sent.filter((m) => m.to.includes('third-party.example'))).toEqual([]);
    expect(server.mailer.sent.filter((m) => m.to === user.email).map((m) => m.subject)).toEqual(['Your report']);
    const row = await server.db.selectFrom('automation_jobs').select('trigger_payload').where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.trigger_payload.data).toEqual({
      from: 'attacker@evil.example',
      recipients: 'victim@third-party.example',
      subject: 'Statement',
      text: 'attacker content\n',
      message_id: expect.stringMatching(/^<.+>$/),
      date: expect.any(String),
    });
  });

  /** A message with `n` tiny attachments. */
  const bomb = (to: string, n: number) => ({
    from: 'attacker@evil.example',
    to,
    subject: 'bomb',
    text: 'many files',
    attachments: Array.from({ length: n }, (_, i) => ({ filename: `f${i}.txt`, content: `file ${i}\n`, contentType: 'text/plain' })),
  });

  it('refuses a mail with 1,000 attachments promptly and runs nothing', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const address = await addressOf(user, rec.recipe_id);
    const t0 = Date.now();
    await expect(transport.sendMail(bomb(address, 1000))).rejects.toMatchObject({
      responseCode: 552,
      response: expect.stringContaining('At most 20 attachments'),
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    await sleep(200);
    expect((await jobsOf(user, rec.recipe_id)).length).toBe(0);
  });

  it('50 such sessions at once do not shut the listener out', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const address = await addressOf(user, rec.recipe_id);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => {
        const t = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
        return t.sendMail(bomb(address, 1000)).finally(() => t.close());
      }),
    );
    // each is refused: at DATA (too many attachments) or at connect (too many from one address)
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect([421, 552]).toContain((r as PromiseRejectedResult).reason.responseCode);
    }
    expect(results.some((r) => (r as PromiseRejectedResult).reason.responseCode === 552)).toBe(true);
    const info = await transport.sendMail({ from: 'supplier@example.com', to: address, subject: 'After the storm', text: 'ok' });
    expect(info.accepted).toEqual([address]);
  });

  it('holds at most 5 sessions from one client address; the next is told 421 at once', async () => {
    const greet = () =>
      new Promise<{ socket: net.Socket; line: string }>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('data', (d) => resolve({ socket, line: d.toString() }));
        socket.once('error', reject);
      });
    const open = await Promise.all(Array.from({ length: 5 }, greet));
    try {
      expect(open.every((o) => o.line.startsWith('220'))).toBe(true);
      const sixth = await greet();
      expect(sixth.line).toMatch(/^421 .*Too many connections from your address/);
      sixth.socket.destroy();
    } finally {
      open.forEach((o) => o.socket.destroy());
    }
    await sleep(100);
    const again = await greet();
    expect(again.line.startsWith('220')).toBe(true);
    again.socket.destroy();
  });
});
