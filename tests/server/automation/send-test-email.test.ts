import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { InboundMail } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { SAMPLE_ATTACHMENT, TestEmailError, sendTestEmail } from '../../tools/send-test-email';
import { C, engineServer, readyRecipe, waitForJob } from './support';
import type { TestServer } from '../../support/server';

jest.setTimeout(30_000);

/** tests/tools/send-test-email.ts, the README's way to send a test e-mail to a recipe, against the real listener. */
describe('send-test-email (tests/tools)', () => {
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await engineServer();
    port = await server.container.get(InboundMail).start({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('sends the sample invoice to a recipe, which runs with it as its file', async () => {
    const { user, rec } = await readyRecipe(server, C.inbound);
    const to = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe.inbound_email;
    const answer = await sendTestEmail({ to, port });
    expect(answer).toMatch(/^250 /);
    let jobs: { id: string }[] = [];
    const deadline = Date.now() + 10_000;
    while (!jobs.length && Date.now() < deadline) {
      jobs = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs;
      await new Promise((r) => setTimeout(r, 30));
    }
    const { job } = await waitForJob(server, user, jobs[0].id);
    expect(job.status).toBe('succeeded');
    expect(job.trigger_summary).toBe('E-mail "Test invoice (send-test-email)" with 6 fields and 1 file (sample-invoice.pdf)');
    const row = await server.db.selectFrom('automation_jobs').select('trigger_payload').where('id', '=', job.id).executeTakeFirstOrThrow();
    const file = row.trigger_payload.files[0];
    expect(file).toMatchObject({ name: 'sample-invoice.pdf', kind: 'pdf' });
    expect((await server.container.get(T.FileStore).read(user.id, file.bucket, file.key)).equals(readFileSync(SAMPLE_ATTACHMENT))).toBe(true);
  });

  it('says why in a sentence when the address is refused, nothing listens, the address or the file is wrong', async () => {
    await expect(sendTestEmail({ to: `recipe-${'0'.repeat(32)}@inbound.localhost`, port })).rejects.toThrow(
      new TestEmailError('The server refused the e-mail: 550 No workflow receives e-mail at this address'),
    );
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    await expect(sendTestEmail({ to: 'recipe-x@inbound.localhost', port: closed })).rejects.toThrow(
      `Nothing answers at 127.0.0.1:${closed}. Is npm start running, with its inbound mail on that port (INBOUND_SMTP_PORT)?`,
    );
    await expect(sendTestEmail({ to: 'not an address', port })).rejects.toThrow(
      '"not an address" is not an e-mail address. Copy the recipe\'s address from its setup screen.',
    );
    await expect(sendTestEmail({ to: 'a@b.example', port, files: ['/nonexistent/invoice.pdf'] })).rejects.toThrow(
      'There is no file /nonexistent/invoice.pdf to attach.',
    );
  });
});
