import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../support/server';
import { TOO_MANY_FAILURES } from '../../../src/server/http/rate-limits';
import { WEBHOOK_GUESSES_PER_10_MINUTES } from '../../../src/server/automation/routes';
import { C, engineServer, readyRecipe, webhookPath } from '../automation/support';

jest.setTimeout(60_000);

/** Guessing webhook tokens: the per-token limit never counted one address trying many tokens. */
describe('failed webhook-token lookups are limited per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await engineServer();
  });
  afterAll(() => server.close());

  const call = (url: string, remoteAddress: string) => server.app.inject({ method: 'POST', url, remoteAddress, payload: { name: 'Ada', order: { total: 3 } } });

  it(`allows ${WEBHOOK_GUESSES_PER_10_MINUTES} unknown tokens from one address, then refuses it, even its right guesses`, async () => {
    const { rec } = await readyRecipe(server, C.pipeline);
    const guesser = '10.91.0.1';
    for (let i = 0; i < WEBHOOK_GUESSES_PER_10_MINUTES; i++) {
      const res = await call(`/api/automation/webhooks/${randomBytes(32).toString('hex')}`, guesser);
      expect(res.statusCode).toBe(404);
    }
    const over = await call(`/api/automation/webhooks/${randomBytes(32).toString('hex')}`, guesser);
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body)).toEqual({ status: 'error', message: TOO_MANY_FAILURES, retry_after: expect.any(Number) });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // the right token from the guessing address is refused too: a late right guess tells nothing
    expect((await call(webhookPath(rec), guesser)).statusCode).toBe(429);
    // another address is not affected
    const other = await call(webhookPath(rec), '10.91.0.2');
    expect(other.statusCode).toBe(200);
    expect(JSON.parse(other.body)).toEqual({ status: 'ok', job_id: expect.any(String) });
  });
});
