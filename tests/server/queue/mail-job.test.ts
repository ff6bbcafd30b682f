import { queueMail } from '../../../src/server/mail';
import type { JobQueue } from '../../../src/server/queue/job-queue';
import * as T from '../../../src/server/tokens';
import { startTestServer, type TestServer } from '../../support/server';
import { waitForJob } from './support';

describe('mail jobs through the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('sends a message queued with queueMail through the durable queue', async () => {
    const id = await queueMail(server.container.get(T.JobQueue), { to: 'Ada@Example.com', subject: 'Welcome', text: 'Hello Ada' });
    const message = await server.mailer.waitFor('ada@example.com');
    expect(message).toMatchObject({ subject: 'Welcome', text: 'Hello Ada' });
    const queue = server.container.get<JobQueue>(T.JobQueue);
    expect(queue.constructor.name).toBe('DbQueue');
    expect(await waitForJob(queue, id, ['completed'])).toMatchObject({ name: 'mail.send', status: 'completed', result: { sent: true } });
  });

  it('retries a message the mail server refused, then sends it', async () => {
    const queue = server.container.get<JobQueue>(T.JobQueue);
    let refusals = 0;
    const send = server.mailer.send.bind(server.mailer);
    server.mailer.send = async (m) => {
      if (m.to === 'bob@example.com' && refusals < 1) {
        refusals += 1;
        throw new Error('421 try again later');
      }
      return send(m);
    };
    // queueMail's own backoff is 2 s; the same job with a short backoff keeps the test quick
    const id = await queue.add('mail.send', { to: 'bob@example.com', subject: 'Hi', text: 'Hi Bob' }, { attempts: 3, backoffMs: 50 });
    await server.mailer.waitFor('bob@example.com');
    expect(await waitForJob(queue, id, ['completed'])).toMatchObject({ attemptsMade: 2 });
    expect(refusals).toBe(1);
  });
});
