import { defineServerPlugin } from '../../../src/server';
import type { JobQueue } from '../../../src/server/queue/job-queue';
import * as T from '../../../src/server/tokens';
import { startTestServer, type TestServer } from '../../support/server';
import { waitForJob } from '../queue/support';

interface Family {
  type: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

/** Parses the Prometheus text format: # TYPE lines and `name{label="value",...} number` samples. */
function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      current = { type: type[2], samples: [] };
      families.set(type[1], current);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || !current) throw new Error(`Not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    const value = Number(m[3]);
    if (Number.isNaN(value) && m[3].toLowerCase() !== 'nan') throw new Error(`Not a number: ${line}`);
    current.samples.push({ name: m[1], labels, value });
  }
  return families;
}

function sample(f: Map<string, Family>, family: string, name: string, labels: Record<string, string>): number | undefined {
  return f.get(family)?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

let tries = 0;
const probe = defineServerPlugin({
  id: 'ops-probe',
  jobs: {
    'ops-probe.flaky': async () => {
      tries += 1;
      if (tries === 1) throw new Error('first try fails');
      return { ok: true };
    },
    'ops-probe.later': async () => ({ ok: true }),
  },
});

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [probe], env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => server?.close());

  it('answers 401 without the bearer token, or with a wrong one', async () => {
    expect((await server.call('GET', '/metrics')).status).toBe(401);
    expect((await server.call('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    expect((await server.call('GET', '/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);
  });

  it('counts requests, job tries and queue depth in the Prometheus text format', async () => {
    const queue = server.container.get<JobQueue>(T.JobQueue);
    const id = await queue.add('ops-probe.flaky', {}, { attempts: 3, backoffMs: 10 });
    expect(await waitForJob(queue, id, ['completed'])).toMatchObject({ status: 'completed', attemptsMade: 2 });
    await queue.add('ops-probe.later', {}, { delayMs: 3_600_000 });
    await queue.add('ops-probe.later', {}, { delayMs: 3_600_000 });
    expect((await server.call('GET', '/healthz')).status).toBe(200);
    expect((await server.call('GET', '/healthz')).status).toBe(200);
    expect((await server.call('GET', '/api/no-such-thing')).status).toBe(404);

    const res = await server.call<string>('GET', '/metrics', { token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const f = parsePrometheus(res.body);

    expect(f.get('flowmatic_http_request_duration_seconds')?.type).toBe('histogram');
    const http = 'flowmatic_http_request_duration_seconds';
    expect(sample(f, http, `${http}_count`, { method: 'GET', route: '/healthz', status: '200' })).toBe(2);
    expect(sample(f, http, `${http}_bucket`, { route: '/healthz', status: '200', le: '+Inf' })).toBe(2);
    // an unmatched path is one series, never one per URL
    expect(sample(f, http, `${http}_count`, { route: 'unmatched', status: '404' })).toBe(1);
    expect(f.get(http)!.samples.some((s) => s.labels.route === '/api/no-such-thing')).toBe(false);

    expect(f.get('flowmatic_jobs_total')?.type).toBe('counter');
    expect(sample(f, 'flowmatic_jobs_total', 'flowmatic_jobs_total', { queue: 'ops-probe.flaky', status: 'retry' })).toBe(1);
    expect(sample(f, 'flowmatic_jobs_total', 'flowmatic_jobs_total', { queue: 'ops-probe.flaky', status: 'completed' })).toBe(1);
    expect(sample(f, 'flowmatic_jobs_total', 'flowmatic_jobs_total', { queue: 'ops-probe.flaky', status: 'failed' })).toBeUndefined();

    const jobs = 'flowmatic_job_duration_seconds';
    expect(f.get(jobs)?.type).toBe('histogram');
    expect(sample(f, jobs, `${jobs}_count`, { queue: 'ops-probe.flaky', status: 'completed' })).toBe(1);
    expect(sample(f, jobs, `${jobs}_count`, { queue: 'ops-probe.flaky', status: 'retry' })).toBe(1);

    expect(f.get('flowmatic_queue_depth')?.type).toBe('gauge');
    expect(sample(f, 'flowmatic_queue_depth', 'flowmatic_queue_depth', { queue: 'ops-probe.later' })).toBe(2);
    expect(sample(f, 'flowmatic_queue_depth', 'flowmatic_queue_depth', { queue: 'ops-probe.flaky' })).toBe(0);

    // the process's default metrics
    expect(f.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(f.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
    expect(sample(f, 'process_resident_memory_bytes', 'process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });
});
