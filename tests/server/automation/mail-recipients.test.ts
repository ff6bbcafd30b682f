import nodemailer from 'nodemailer';
import { combinationRow } from '../../../src/server/catalogue/seed';
import { InboundMail } from '../../../src/server/automation';
import { SmtpMailer } from '../../../src/server/mail';
import * as T from '../../../src/server/tokens';
import type { TestServer, TestUser } from '../../support/server';
import { SmtpSink } from '../../support/smtp-sink';
import { combination, engineServer, readyRecipe, waitForJob, type Rec } from './support';

jest.setTimeout(60_000);

/**
 * Issue 19: a run of a recipe that starts from e-mail sends e-mail only to the recipe's owner or
 * to an address the recipe names as it is, however the run started (real inbound mail, the
 * recipe's webhook standing in for the mail, a run again); an address the run's data brought
 * (the sender, the To:, the text) is anyone's choice, so the step writes to the owner instead
 * and says why. The server's mailer here is real SMTP into a local sink: every assertion is on
 * the messages the sink received.
 */
const MAIL_TO_SENDER = 9101; // e-mail → send to '{{from}}'
const MAIL_TO_FIXED = 9102; // e-mail → send to a fixed address
const HOOK_TO_FIELD = 9103; // webhook → send to '{{email}}' (not mail-started: unchanged)
const MAIL_TO_FIELD = 9104; // e-mail → send with no 'to' of its own: the run's own 'to' field

const MAIL = { kind: 'trigger', provider: 'manual_email', action: 'email_received' } as const;
const send = (to: string) =>
  ({ kind: 'action', provider: 'email', action: 'send', params: { to, subject: 'Re: {{subject}}', text: 'Received: {{subject}}' } }) as const;

describe('who a mail-started run may e-mail', () => {
  let server: TestServer;
  let transport: ReturnType<typeof nodemailer.createTransport>;
  const sink = new SmtpSink();
  let mailer: SmtpMailer;

  beforeAll(async () => {
    await sink.start();
    mailer = new SmtpMailer(sink.url, 'robot@flowmatic.example');
    server = await engineServer({ overrides: (c) => c.rebind(T.Mailer).toConstantValue(mailer) });
    const seeds = [
      combination(MAIL_TO_SENDER, [MAIL, send('{{from}}')]),
      combination(MAIL_TO_FIXED, [MAIL, send('accounts@owner-company.example')]),
      combination(HOOK_TO_FIELD, [{ kind: 'trigger', provider: 'webhook', action: 'webhook_received' }, send('{{email}}')]),
      combination(MAIL_TO_FIELD, [
        MAIL,
        { kind: 'action', provider: 'email', action: 'send', params: { subject: 'Copy: {{subject}}', text: 'Copy of {{subject}}' } },
      ]),
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
    await mailer.close();
    await sink.close();
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
  /** What the SMTP sink received for an address: [to, subject, text] of each message. */
  const sentTo = (address: string) =>
    sink.messages
      .filter((m) => m.to.some((a) => a.toLowerCase() === address.toLowerCase()))
      .map((m) => ({ to: m.to, subject: m.subject, text: m.text.trim() }));
  /** A webhook call standing in for an e-mail to the recipe (the e-mail payload: sender, subject, text, attachment). */
  const standIn = (rec: Rec, body: Record<string, string>) =>
    server.call('POST', new URL(rec.workato_webhook).pathname, {
      body: { name: 'invoice.csv', binary: Buffer.from('n,total\n1,2\n').toString('base64'), ...body },
    });

  it('an address from the mail (its sender) is not written to: the owner gets the message, and the step says why', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_SENDER);
    const { job, steps } = await mailIn(user, rec, { from: 'Mallory <victim@elsewhere.example>', subject: 'Invoice 7', text: 'hello' });
    expect(job.status).toBe('succeeded');
    expect(sentTo('victim@elsewhere.example')).toEqual([]);
    expect(sentTo(user.email)).toEqual([{ to: [user.email], subject: 'Re: Invoice 7', text: 'Received: Invoice 7' }]);
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
    expect(sentTo(user.email)).toEqual([{ to: [user.email], subject: 'Re: Mine', text: 'Received: Mine' }]);
    expect(steps[1].output.warnings).toBeUndefined();
  });

  it('an address the recipe names as it is gets the message', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_FIXED);
    const { job, steps } = await mailIn(user, rec, { from: 'someone@elsewhere.example', subject: 'Fixed', text: 'hello' });
    expect(job.status).toBe('succeeded');
    expect(sentTo('accounts@owner-company.example')).toEqual([{ to: ['accounts@owner-company.example'], subject: 'Re: Fixed', text: 'Received: Fixed' }]);
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
    expect(sentTo(user.email)).toEqual([
      { to: [user.email], subject: 'Re: Again', text: 'Received: Again' },
      { to: [user.email], subject: 'Re: Again', text: 'Received: Again' },
    ]);
  });

  it('the webhook standing in for the e-mail keeps the rule: a third-party sender gets nothing, the owner gets the message and the step says why', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_SENDER);
    const res = await standIn(rec, { from: 'Mallory <victim@elsewhere.example>', subject: 'Invoice 8', text: 'hello' });
    expect(res.status).toBe(200);
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(sentTo('victim@elsewhere.example')).toEqual([]);
    expect(sentTo(user.email)).toEqual([{ to: [user.email], subject: 'Re: Invoice 8', text: 'Received: Invoice 8' }]);
    expect(steps[1].output).toEqual({
      sent: true,
      to: user.email,
      subject: 'Re: Invoice 8',
      message_id: expect.stringMatching(/^<[0-9a-f]{40}@automation\.flowmatic>$/),
      warnings: [
        `victim@elsewhere.example came from the webhook call that started this run, so the message went to you (${user.email}) instead: this workflow starts from e-mail, so its runs write only to you or to an address the recipe names, however they are started.`,
      ],
    });
    // a run again of the stand-in run keeps it too
    const again = await server.call('POST', `/api/automation/jobs/${job.id}/rerun`, { token: user.access });
    const rerun = await waitForJob(server, user, again.body.job_id);
    expect(rerun.job.status).toBe('succeeded');
    expect(rerun.steps[1].output.to).toBe(user.email);
    expect(sentTo('victim@elsewhere.example')).toEqual([]);
    expect(sentTo(user.email).map((m) => m.subject)).toEqual(['Re: Invoice 8', 'Re: Invoice 8']);
  });

  it('a stand-in call naming a third-party To sends nothing there; a stand-in sender who is the owner is written to', async () => {
    const { user, rec } = await readyRecipe(server, MAIL_TO_FIELD);
    const res = await standIn(rec, { from: 'supplier@elsewhere.example', to: 'third-party@elsewhere.example', subject: 'Bill 9', text: 'x' });
    expect(res.status).toBe(200);
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(sentTo('third-party@elsewhere.example')).toEqual([]);
    expect(sentTo('supplier@elsewhere.example')).toEqual([]);
    expect(sentTo(user.email)).toEqual([{ to: [user.email], subject: 'Copy: Bill 9', text: 'Copy of Bill 9' }]);
    expect(steps[1].output.warnings).toEqual([
      `third-party@elsewhere.example came from the webhook call that started this run, so the message went to you (${user.email}) instead: this workflow starts from e-mail, so its runs write only to you or to an address the recipe names, however they are started.`,
    ]);
    const owner = await readyRecipe(server, MAIL_TO_SENDER, user);
    const mine = await standIn(owner.rec, { from: user.email, subject: 'Mine too', text: 'x' });
    const done = await waitForJob(server, user, mine.body.job_id);
    expect(done.job.status).toBe('succeeded');
    expect(done.steps[1].output.warnings).toBeUndefined();
    expect(sentTo(user.email).map((m) => m.subject)).toEqual(['Copy: Bill 9', 'Re: Mine too']);
  });

  it('a webhook run still sends where its data says (only mail-started runs are limited)', async () => {
    const { user, rec } = await readyRecipe(server, HOOK_TO_FIELD);
    const res = await server.call('POST', new URL(rec.workato_webhook).pathname, { body: { email: 'customer@example.com', subject: 'Order 5' } });
    const { job, steps } = await waitForJob(server, user, res.body.job_id);
    expect(job.status).toBe('succeeded');
    expect(steps[1].output).toMatchObject({ sent: true, to: 'customer@example.com', subject: 'Re: Order 5' });
    expect(sentTo('customer@example.com')).toEqual([{ to: ['customer@example.com'], subject: 'Re: Order 5', text: 'Received: Order 5' }]);
  });
});
