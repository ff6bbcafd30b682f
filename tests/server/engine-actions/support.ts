import type { ServerPlugin } from '../../../src/server/plugin';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { ScriptedOcr } from '../extraction-routes/support';
import { FAST, readyRecipe, recordOf, waitForJob, webhookPath, type Rec } from '../automation/support';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';

export { readyRecipe, recordOf, waitForJob, webhookPath, type Rec };

/**
 * A test server with the given plugins (their catalogues seeded), the engine's fast timings and
 * a scripted OCR engine (the tests use text-layer PDFs; a call to OCR would be a bug).
 */
export async function actionServer(
  plugins: ServerPlugin[],
  opts: { env?: Record<string, string>; options?: Partial<EngineOptions> } = {},
): Promise<TestServer & { ocr: ScriptedOcr }> {
  const ocr = new ScriptedOcr();
  const server = await startTestServer({
    plugins,
    env: opts.env,
    overrides: (c) => {
      c.rebind(T.Ocr).toConstantValue(ocr);
      const base = c.get<EngineOptions>(AutomationOptions);
      c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST, stepTimeoutMs: 10_000, aiStepTimeoutMs: 20_000, ...opts.options });
    },
  });
  return Object.assign(server, { ocr });
}

/** Posts a body to a recipe's webhook and waits for the job to end; returns the job and its steps. */
export async function runThroughWebhook(server: TestServer, user: TestUser, rec: Rec, body: unknown, timeoutMs = 20_000): Promise<{ job: any; steps: any[] }> {
  const res = await server.call('POST', webhookPath(rec), { body });
  if (res.status !== 200) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return waitForJob(server, user, res.body.job_id, ['succeeded', 'failed'], timeoutMs);
}

/** The checkpointed output of a job's step (the full value, not the summary). */
export async function stepOutput(server: TestServer, jobId: string, index: number): Promise<any> {
  const row = await server.db.selectFrom('automation_steps').select('output').where('job_id', '=', jobId).where('index', '=', index).executeTakeFirstOrThrow();
  const out = row.output;
  return typeof out === 'string' ? JSON.parse(out) : out;
}

/** A JSON webhook body carrying one file as base64 (the engine stores it in the owner's file store). */
export function fileBody(name: string, bytes: Uint8Array | Buffer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, name, binary: Buffer.from(bytes).toString('base64') };
}

export { createUser };
