import nodemailer from 'nodemailer';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { InboundMail } from '../../../src/server/automation';
import type { TestServer, TestUser } from '../../support/server';
import { combination, engineServer, readyRecipe, waitForJob, type Rec } from './support';

jest.setTimeout(60_000);

/**
 * Issue 19: a run started by an inbound e-mail sends e-mail only to the recipe's owner or to an
 * address the recipe names as it is; an address the mail brought (its sender, its text, its
 * own To:) is anyone's choice, so the step writes to the owner instead and says why.
 */
const MAIL_TO_SENDER = 9101; // e-mail → send to '{{from}}'
const MAIL_TO_FIXED = 9102; // e-mail → send to a fixed address
const HOOK_TO_FIELD = 9103; // webhook → send to '{{email}}' (not mail-started: unchanged)

const MAIL = { kind: 'trigger', provider: 'manual_email', action: 'email_received' } as const;
const send = (to: string) =>
  ({ kind: 'action', provider: 'email', action: 'send', params: { to, subject: 'Re: {{subject}}', text: 'Received: {{subject}}' } }) as const;

describe('who a mail-started run may e-mail', () => {
  let server: TestServer;
  let transport: ReturnType<typeof nodemailer.createTransport>;

  beforeAll(async () => {
    server = await engineServer();
    const seeds = [
      combination(MAIL_TO_SENDER, [MAIL, send('{{from}}')]),
      combination(MAIL_TO_FIXED, [MAIL, send('accounts@owner-company.example')]),
      combination(HOOK_TO_FIELD, [{ kind: 'trigger', provider: 'webhook', action: 'webhook_received' }, send('{{email}}')]),
    ];
    for (const c of seeds)
      await server.db
        .insertInto('combinations')
        .values({ id: c.id, ...combinationRow(c, 'engine-test', false, new Date()) })
        .execute();
    const port = await server.container.get(InboundMail).start({ port: 0, host: '127.0.0.1' });
    transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  });
  afterAll(async () => {
    transport.close();
    await server.close();
  });

  /** Mails the recipe's secret address and waits for the job the mail started. */
  async function mailIn(user: TestUser, rec: Rec, mail: { from: string; subject: string; text: string }) {
    const to = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}`, { token: user.access })).body.recipe.inbound_email;
    await transport.sendMail({ ...mail, to, attachments: [{ filename: 'invoice.csv', content: 'n,total\n1,2\n', contentType: 'text/csv' }] });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const jobs = (await server.call('GET', `/api/automation/recipes/${rec.recipe_id}/jobs`, { token: user.access })).body.jobs;
      if (jobs.length) return waitForJob(server, user, jobs[0].id);
      if (Date.now() > deadline) throw new Error('no job');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const sentTo = (address: string) => server.mailer.sent.filter((m) => m.to === address);

  it('an address from the mail (its sender) is not written to: the owner gets the message, and the step says why', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_SENDER);
    const { job, steps } = await mailIn(user, rec, { from: 'Mallory <victim@elsewhere.example>', subject: 'Invoice 7', text: 'hello' });
    expect(job.status).toBe('succeeded');
    expect(sentTo('victim@elsewhere.example')).toEqual([]);
    const mails = sentTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: user.email, subject: 'Re: Invoice 7', text: 'Received: Invoice 7' });
    expect(steps[1].output).toMatchObject({
      sent: true,
      to: user.email,
      subject: 'Re: Invoice 7',
      warnings: [
        `victim@elsewhere.example came from the e-mail that started this run, so the message went to you (${user.email}) instead: a run started by an e-mail writes only to you or to an address the recipe names.`,
      ],
    });
  });

  it('a sender who is the owner is written to as asked', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_SENDER);
    const { job, steps } = await mailIn(user, rec, { from: `Owner <${user.email}>`, subject: 'Mine', text: 'hello' });
    expect(job.status).toBe('succeeded');
    expect(sentTo(user.email).filter((m) => m.subject === 'Re: Mine')).toHaveLength(1);
    expect(steps[1].output.warnings).toBeUndefined();
  });

  it('an address the recipe names as it is gets the message', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_FIXED);
    const { job, steps } = await mailIn(user, rec, { from: 'someone@elsewhere.example', subject: 'Fixed', text: 'hello' });
    expect(job.status).toBe('succeeded');
    expect(sentTo('accounts@owner-company.example').map((m) => m.subject)).toEqual(['Re: Fixed']);
    expect(sentTo('someone@elsewhere.example')).toEqual([]);
    expect(steps[1].output).toMatchObject({ sent: true, to: 'accounts@owner-company.example' });
    expect(steps[1].output.warnings).toBeUndefined();
  });

  it('a run again of a mail-started job keeps the rule', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_SENDER);
    const first = await mailIn(user, rec, { from: 'other@elsewhere.example', subject: 'Again', text: 'x' });
    const again = await server.call('POST', `/api/automation/jobs/${first.job.id}/rerun`, { token: user.access });
    const { job, steps } = await waitForJob(server, user, again.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(steps[1].output.to).toBe(user.email);
    expect(sentTo('other@elsewhere.example')).toEqual([]);
  });

  it('a webhook run still sends where its data says (only mail-started runs are limited)', async () => {
    const { user, rec } = await readyRecipe(server, HOOK_TO_FIELD);
    const res = await server.call('POST', new URL(rec.workato_webhook).pathname, { body: { email: 'customer@example.com', subject: 'Order 5' } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(steps[1].output).toMatchObject({ sent: true, to: 'customer@example.com', subject: 'Re: Order 5' });
    expect(sentTo('customer@example.com').map((m) => m.subject)).toEqual(['Re: Order 5']);
  });
});
