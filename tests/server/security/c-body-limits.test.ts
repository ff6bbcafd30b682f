/**
 * Issue 21 (round three), body limits: webhooks and uploads have a declared total and per-field
 * limit, a deeply nested body is a clear 400, and a refused upload leaves nothing on disk.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../../support/server';
import { C, engineServer, readyRecipe, webhookPath } from '../automation/support';

jest.setTimeout(60_000);

function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----flowmatic-test-boundary';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename ? 'Content-Type: text/csv\r\n' : ''}\r\n`),
      Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('body limits on webhooks and uploads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await engineServer({ env: { MAX_UPLOAD_MB: '1', WEBHOOK_RATE_LIMIT: '1000' } });
  });
  afterAll(() => server.close());

  it('refuses a webhook call of 100 text fields of 1 MB before reading it (413), and stores no job', async () => {
    const { rec } = await readyRecipe(server, C.pipeline);
    const body = multipart(Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, value: 'x'.repeat(1024 * 1024) })));
    const jobsBefore = await server.db
      .selectFrom('automation_jobs' as never)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
      .catch(() => undefined);
    const res = await server.app.inject({ method: 'POST', url: webhookPath(rec), ...body });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).message).toBe('The upload is larger than the 8.5 MB a request may carry.');
    const jobsAfter = await server.db
      .selectFrom('automation_jobs' as never)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
      .catch(() => undefined);
    expect(jobsAfter).toEqual(jobsBefore);
  });

  it('refuses a text field over 64 KB', async () => {
    const { rec } = await readyRecipe(server, C.pipeline);
    const res = await server.app.inject({ method: 'POST', url: webhookPath(rec), ...multipart([{ name: 'note', value: 'x'.repeat(65 * 1024) }]) });
    expect(res.statusCode).toBe(413);
  });

  it('answers a deeply nested JSON body with a clear 400, never 500', async () => {
    const { rec } = await readyRecipe(server, C.pipeline);
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const res = await server.app.inject({ method: 'POST', url: webhookPath(rec), payload: deep, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ status: 'error', message: 'The request body is nested more than 32 levels deep.' });
  });

  it('ten refused "too large" uploads leave nothing on disk', async () => {
    const { rec } = await readyRecipe(server, C.pipeline);
    const root = path.join(server.config.dataDir, 'files');
    const before = filesUnder(root);
    for (let i = 0; i < 10; i++) {
      const body = multipart([
        { name: 'first', value: Buffer.from('a,b\n1,2\n'), filename: 'small.csv' },
        { name: 'second', value: Buffer.from('a,b\n' + '1,2\n'.repeat(300_000)), filename: 'big.csv' },
      ]);
      const res = await server.app.inject({ method: 'POST', url: webhookPath(rec), ...body });
      expect(res.statusCode).toBe(413);
    }
    const after = filesUnder(root).filter((f) => !before.includes(f));
    expect(after.map((f) => `${f} ${statSync(f).size}`)).toEqual([]);
  });
});
