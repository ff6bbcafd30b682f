import nodemailer from 'nodemailer';
import { createUser, type TestServer } from '../../support/server';
import { Automation, InboundMail, InboundMailListener } from '../../../src/server/automation';
import { mailTokenOfAddress } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { C, engineServer, readyRecipe, recordOf, waitForJob } from './support';

jest.setTimeout(30_000);

describe('the manual_email trigger: a real SMTP listener', () => {
  let server: TestServer;
  let port: number;
  let transport: ReturnType<typeof nodemailer.createTransport>;

  beforeAll(async () => {
    server = await engineServer();
    port = await server.container.get(InboundMail).start({ port: 0, host: '127.0.0.1' });
    transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, tls: { rejectUnauthorized: false } });
  });
  afterAll(async () => {
    transport.close();
    await server.close(); // stops the listener too (onStop)
  });

  const T32 = '0123456789abcdef0123456789abcdef';
  /** The recipe's secret inbound address, as the setup screen gets it. */
  const addressOf = async (user: { access: string }, recipeId: number): Promise<string> =>
    (await server.call('GET', `/api/automation/recipes/${recipeId}`, { token: user.access })).body.recipe.inbound_email;

  it('reads mail tokens from addresses of its own domain only', () => {
    expect(mailTokenOfAddress(`recipe-${T32}@inbound.localhost`, 'inbound.localhost')).toBe(T32);
    expect(mailTokenOfAddress(`Recipe-${T32.toUpperCase()}@INBOUND.localhost`, 'inbound.localhost')).toBe(T32);
    expect(mailTokenOfAddress(`recipe-${T32}@elsewhere.example`, 'inbound.localhost')).toBeUndefined();
    expect(mailTokenOfAddress('recipe-7@inbound.localhost', 'inbound.localhost')).toBeUndefined();
    expect(mailTokenOfAddress('someone@inbound.localhost', 'inbound.localhost')).toBeUndefined();
  });

  it('runs the recipe with the e-mail as its trigger and its attachment stored for the owner', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const to = await addressOf(user, rec.recipe_id);
    const info = await transport.sendMail({
      from: 'Supplier <billing@supplier.example>',
      to,
      subject: 'Invoice 42',
      text: 'Please find the invoice attached.',
      attachments: [{ filename: 'invoice.csv', content: 'number,total\n42,99.50\n', contentType: 'text/csv' }],
    });
    expect(info.accepted).toEqual([to]);
    let jobs: any[] = [];
    const deadline = Date.now() + 10_000;
    while (!jobs.length && Date.now() < deadline) {
      jobs = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs;
      await new Promise((r) => setTimeout(r, 30));
    }
    const { job, steps } = await waitForJob(server, user, jobs[0].id);
    expect(job.status).toBe('succeeded');
    expect(job.trigger_summary).toBe('E-mail "Invoice 42" with 6 fields and 1 file (invoice.csv)');
    expect(steps[1].output_summary).toContain('subject Invoice 42');
    const row = await server.db.selectFrom('automation_jobs').select('trigger_payload').where('id', '=', job.id).executeTakeFirstOrThrow();
    const file = row.trigger_payload.files[0];
    expect(file).toMatchObject({ name: 'invoice.csv', kind: 'csv', bucket: 'automation' });
    expect((await server.container.get(T.FileStore).read(user.id, file.bucket, file.key)).toString()).toBe('number,total\n42,99.50\n');
    expect(row.trigger_payload.data).toMatchObject({
      from: expect.stringContaining('billing@supplier.example'),
      subject: 'Invoice 42',
      text: expect.stringContaining('invoice attached'),
    });
  });

  it('refuses an unknown address and a stopped recipe at RCPT', async () => {
    const user = await createUser(server);
    const stopped = await recordOf(server, user, C.inbound);
    for (const to of [
      `recipe-${T32}@inbound.localhost`,
      'postmaster@inbound.localhost',
      'someone@elsewhere.example',
      await addressOf(user, stopped.recipe_id),
    ]) {
      await expect(transport.sendMail({ from: 'a@b.example', to, subject: 'x', text: 'y' })).rejects.toMatchObject({ responseCode: 550 });
    }
  });

  it('refuses a message over the size limit at DATA and runs nothing', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const engine = server.container.get(Automation);
    const small = new InboundMailListener({
      domain: 'inbound.localhost',
      maxMessageBytes: 2000,
      maxAttachmentBytes: 1000,
      db: server.db,
      files: server.container.get(T.FileStore),
      recipeById: (id) => engine.recipes.byId(id),
      run: (r, p) => engine.run(r, p),
      log: { info: () => undefined, warn: () => undefined },
    });
    const smallPort = await small.start({ port: 0, host: '127.0.0.1' });
    const t = nodemailer.createTransport({ host: '127.0.0.1', port: smallPort, secure: false, ignoreTLS: true });
    try {
      await expect(
        t.sendMail({ from: 'a@b.example', to: await addressOf(user, rec.recipe_id), subject: 'big', text: 'z'.repeat(50_000) }),
      ).rejects.toMatchObject({ responseCode: 552 });
      const jobs = await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access });
      expect(jobs.body.jobs).toHaveLength(0);
    } finally {
      t.close();
      await small.stop();
    }
  });
});
