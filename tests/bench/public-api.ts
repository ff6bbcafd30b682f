/**
 * `npm run bench -- public-api`: the latency of analyse_emotion and extract_invoice through the
 * MCP server (official SDK client over Streamable HTTP, an API key) beside the same work through
 * the browser's routes (login token; the invoice uploaded with uploadworkflowfile, then
 * extract_data). The real server with every plugin, on-disk embedded database, loopback HTTP.
 * Calls run one at a time; the routes' own rate limits (emotion 60, extraction 30 a minute per
 * address) bound how many fit in a minute, so the samples are small. Prints figures only.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { discoverServerPlugins } from '../../src/server/plugin-loader';
import type { Db } from '../../src/server/db/database';
import type { TokenService } from '../../src/server/auth/token-service';
import * as T from '../../src/server/tokens';
import { renderInvoicePdf } from '../support/invoices/render';

const repo = path.resolve(__dirname, '../..');
const EMOTION_CALLS = 18;
const INVOICE_CALLS = 10;
const TEXT = 'Thank you for the quick delivery, the team is delighted. The second invoice is still wrong and I am getting frustrated. Please call me tomorrow.';

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

function row(name: string, samples: number[]) {
  const r = stats(samples);
  console.log(
    `${name.padEnd(58)} n=${String(r.n).padStart(3)}   p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms   mean ${r.mean.toFixed(1).padStart(7)} ms`,
  );
}

/** Runs each call `n` times, taking turns (one of each, then again), so the machine's load falls on all alike. */
async function interleaved(n: number, calls: Array<[string, () => Promise<void>]>): Promise<void> {
  const samples = calls.map(() => [] as number[]);
  for (const [, fn] of calls) await fn(); // warm-up, not counted
  for (let i = 0; i < n; i++) {
    for (const [j, [, fn]] of calls.entries()) {
      const t = performance.now();
      await fn();
      samples[j].push(performance.now() - t);
    }
  }
  calls.forEach(([name], j) => row(name, samples[j]));
}

async function main() {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `public API / MCP latency — node ${process.version}, ${os.cpus().length} cores, load average ${load} (a shared, loaded machine: compare the rows with each other, not with other runs)\n`,
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flowmatic-bench-api-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error', CLIENT_DIR: path.join(dataDir, 'none'), API_KEY_RATE_LIMIT: '100000', INBOUND_SMTP_PORT: '0' },
    repo,
  );
  const server = await buildServer({ config, plugins: await discoverServerPlugins(path.join(repo, 'plugins')), logger: false });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  let client: Client | undefined;
  try {
    const db = server.container.get<Db>(T.Db);
    const user = await db
      .insertInto('users')
      .values({ name: 'Bench', email: 'bench-api@example.com', password_hash: 'x', role: 'bm', company_name: 'Bench Ltd', is_verified: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('managed_users').values({ user_id: user.id, external_id: 'bench-api' }).execute();
    const { access } = await server.container.get<TokenService>(T.TokenService).sessionPair(user.id, 0);
    const auth = { authorization: `Bearer ${access}` };
    const made = await fetch(`${url}/api/v1/keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    });
    if (made.status !== 201) throw new Error(`key: ${made.status} ${await made.text()}`);
    const key = ((await made.json()) as { key: string }).key;

    client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const tool = async (name: string, args: Record<string, unknown>) => {
      const res = (await client!.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      if (res.isError) throw new Error(`${name}: ${res.content[0]?.text}`);
    };
    const ok = async (res: Response) => {
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };

    const emotionBody = JSON.stringify({ text: TEXT });
    await interleaved(EMOTION_CALLS, [
      ['analyse_emotion via MCP (tools/call)', () => tool('analyse_emotion', { text: TEXT })],
      [
        'analyse_emotion via REST (POST /api/v1/emotions, API key)',
        async () =>
          ok(
            await fetch(`${url}/api/v1/emotions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: emotionBody,
            }),
          ),
      ],
      [
        'emotion via the browser route (POST text_processing_json/)',
        async () =>
          ok(
            await fetch(`${url}/api/api/text_processing_json/`, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: emotionBody,
            }),
          ),
      ],
    ]);
    console.log('');

    const invoice = await renderInvoicePdf({ seed: 11, layout: 'classic', font: 'helvetica' });
    const base64 = Buffer.from(invoice.pdf).toString('base64');
    await interleaved(INVOICE_CALLS, [
      ['extract_invoice via MCP (text-layer PDF, base64)', () => tool('extract_invoice', { file_name: 'invoice.pdf', file_base64: base64 })],
      [
        'invoice via the browser routes (upload + extract_data)',
        async () => {
          const form = new FormData();
          form.append('name', 'invoice.pdf');
          form.append('country', 'GB');
          form.append('workflow', '10004');
          form.append('file', new Blob([Buffer.from(invoice.pdf)], { type: 'application/pdf' }), 'invoice.pdf');
          const up = await fetch(`${url}/api/platform/uploadworkflowfile`, { method: 'POST', headers: auth, body: form });
          if (!up.ok) throw new Error(`upload ${up.status} ${await up.text()}`);
          const { key: fileKey, bucket } = (await up.json()) as { key: string; bucket: string };
          await ok(
            await fetch(`${url}/api/service/extract_data/`, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ key: fileKey, bucket }),
            }),
          );
        },
      ],
    ]);
  } finally {
    await client?.close().catch(() => undefined);
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
