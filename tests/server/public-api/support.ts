import emotionAnalysis from '../../../plugins/emotion-analysis/server';
import documentSearch from '../../../plugins/document-search/server';
import invoiceExtraction from '../../../plugins/invoice-extraction/server';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation/server';
import financialAnalysis from '../../../plugins/financial-analysis/server';
import { AutomationOptions, type EngineOptions } from '../../../src/server/automation';
import * as T from '../../../src/server/tokens';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { FAST, dropInPlugin, seedTestCombinations, testPlugin } from '../automation/support';
import { ScriptedOcr } from '../extraction-routes/support';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';

/** The AI plugins the public API reaches, and the engine's test recipes (C.pipeline: webhook → transform → store). */
export async function apiServer(opts: { listen?: boolean; env?: Record<string, string> } = {}): Promise<TestServer> {
  const ocr = new ScriptedOcr();
  const server = await startTestServer({
    listen: opts.listen,
    env: opts.env,
    plugins: [connectorDeclarations, testPlugin, dropInPlugin, emotionAnalysis, documentSearch, invoiceExtraction, invoiceReconciliation, financialAnalysis],
    overrides: (c) => {
      const base = c.get<EngineOptions>(AutomationOptions);
      c.rebind<EngineOptions>(AutomationOptions).toConstantValue({ ...base, ...FAST });
      c.rebind(T.Ocr).toConstantValue(ocr);
    },
  });
  await seedTestCombinations(server);
  return server;
}

/** A user with an API key (made through POST /api/v1/keys with the user's login token). */
export async function userWithKey(server: TestServer, name = 'Test key'): Promise<TestUser & { key: string; keyId: number }> {
  const user = await createUser(server);
  const res = await server.call('POST', '/api/v1/keys', { token: user.access, body: { name } });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...user, key: res.body.key, keyId: res.body.id };
}

/** A small CSV, base64. */
export const csv64 = (rows: string[]) => Buffer.from(rows.join('\n') + '\n').toString('base64');
