import { defineServerPlugin } from '../../../src/server';
import { type JobContext } from '../../../src/server/queue/job-queue';
import type { JobQueue } from '../../../src/server/queue/job-queue';
import * as T from '../../../src/server/tokens';
import { startTestServer, type TestServer } from '../../support/server';
import { sleep, waitForJob } from './support';

/** What the plugin's handler saw, and the gate that holds it mid-job. */
const seen: Array<{ data: unknown; hasQueue: boolean; id: string; attempt: number }> = [];
let release: () => void = () => undefined;

/**
 * A plugin whose job is registered through `jobs` (not in onStart): its handler gets the job's
 * data, the plugin's services and the job itself (id, try, progress reporter).
 */
const progressPlugin = defineServerPlugin({
  id: 'progress-probe',
  needs: { queue: T.JobQueue },
  jobs: {
    'progress-probe.work': {
      concurrency: 2,
      handler: async (data: { n: number }, deps, job: JobContext) => {
        seen.push({ data, hasQueue: typeof deps.queue.add === 'function', id: job.id, attempt: job.attempt });
        await job.progress(40);
        await new Promise<void>((r) => (release = r));
        await job.progress(90);
        return { doubled: data.n * 2 };
      },
    },
  },
});

describe("a plugin's job handler (plugin contract `jobs`)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [progressPlugin] });
  });
  afterAll(() => server?.close());

  it('receives the job context and reports progress the queue keeps', async () => {
    const queue = server.container.get<JobQueue>(T.JobQueue);
    const id = await queue.add('progress-probe.work', { n: 21 });
    const deadline = Date.now() + 10_000;
    while ((await queue.get(id))?.progress !== 40) {
      if (Date.now() > deadline) throw new Error(`no progress reported: ${JSON.stringify(await queue.get(id))}`);
      await sleep(20);
    }
    expect(await queue.get(id)).toMatchObject({ status: 'active', progress: 40 });
    expect(seen).toEqual([{ data: { n: 21 }, hasQueue: true, id, attempt: 1 }]);
    release();
    expect(await waitForJob(queue, id, ['completed'])).toMatchObject({ status: 'completed', progress: 100, result: { doubled: 42 } });
  });
});
