/**
 * Reconciliation benchmark: `npx tsx tests/bench/reconcile.ts [--rows 100000] [--repeat 3] [--rounds 2] [--keep] [--no-http]`
 * (`--keep` leaves the generated files in the temp folder and prints where).
 *
 * Generates two seeded CSVs (invoices and purchase orders, ~5% of lines with a discrepancy, 2%
 * of keys unmatched on each side, some quoted descriptions and "1,234.50" amounts), then runs,
 * each in its own child process so peak memory is its own:
 *   - parse:     PapaParse alone (header: true, strings) parsing both files;
 *   - reconcile: the engine's read + match (`reconcile`) on the same files.
 * Each child times `--repeat` runs; `--rounds` alternates the two children (parse, reconcile,
 * parse, ...) so a change in the machine's load hits both. Prints the best wall-clock time and
 * the best CPU time (user + system of the process, GC threads included: steadier than the wall
 * clock on a shared machine) of all runs, peak RSS, heap after the run, both ratios, and the
 * load average before and after.
 * Then (unless --no-http) it times the comparison endpoint over HTTP on the same pair, or, above
 * the endpoint's RECONCILE_MAX_ROWS rows a file (which it refuses), on a pair of that size. Asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Papa from 'papaparse';
import { RECONCILE_MAX_ROWS } from '../../plugins/invoice-reconciliation/engine/compare';
import { reconcile } from '../../plugins/invoice-reconciliation/engine/matcher';
import { rng as random } from '../support/invoices/random-invoice';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const VENDORS = [
  'Acme Ltd',
  'Globex Corporation',
  'Initech',
  'Umbrella Supplies',
  'Stark Industrial',
  'Wayne Components',
  'Hooli Office',
  'Vandelay Imports',
  'Soylent Foods',
  'Tyrell Parts',
];
const ITEMS = [
  'Steel bolts M8',
  'Copy paper A4',
  'Toner cartridge',
  'Office chair',
  'Standing desk',
  'Network cable, 5m',
  'Safety gloves, size L',
  'LED panel',
  'Packing tape',
  'Label printer',
];

function money(value: number, rnd: () => number): string {
  const text = value.toFixed(2);
  if (value >= 1000 && rnd() < 0.1) return `"${Number(text).toLocaleString('en-US', { minimumFractionDigits: 2 })}"`;
  return text;
}

function csvCell(text: string): string {
  return text.includes(',') ? `"${text}"` : text;
}

/** Writes the two files; returns their paths and what was planted. */
function generate(dir: string, rows: number) {
  const rnd = random(20261122);
  const po: string[] = ['PO Number,Vendor,Vendor Email,Description,Quantity,Unit Price,Total,Order Date'];
  const inv: string[] = ['Invoice Number,PO Number,Vendor,Description,Qty,Unit Price,Line Total,Invoice Date'];
  let planted = 0;
  let unmatchedInvoices = 0;
  for (let i = 1; i <= rows; i++) {
    const key = `PO-${String(i).padStart(7, '0')}`;
    const vendor = VENDORS[Math.floor(rnd() * VENDORS.length)];
    const item = ITEMS[Math.floor(rnd() * ITEMS.length)];
    const qty = 1 + Math.floor(rnd() * 200);
    const price = Math.round((0.5 + rnd() * 400) * 100) / 100;
    const total = Math.round(qty * price * 100) / 100;
    po.push(
      `${key},${vendor},ap@${vendor.toLowerCase().replace(/[^a-z]/g, '')}.example,${csvCell(item)},${qty},${price.toFixed(2)},${money(total, rnd)},2026-10-${String(1 + (i % 28)).padStart(2, '0')}`,
    );
    const roll = rnd();
    let invKey = key;
    let iQty = qty;
    let iPrice = price;
    if (roll < 0.02) {
      invKey = `PO-X${String(i).padStart(7, '0')}`; // no such order: unmatched on both sides
      unmatchedInvoices++;
    } else if (roll < 0.07) {
      planted++;
      if (rnd() < 0.5) iQty += 1 + Math.floor(rnd() * 5);
      else iPrice = Math.round((price + 0.05 + rnd() * 10) * 100) / 100;
    }
    const iTotal = Math.round(iQty * iPrice * 100) / 100;
    inv.push(
      `INV-${100000 + i},${invKey},${vendor},${csvCell(item)},${iQty},${iPrice.toFixed(2)},${money(iTotal, rnd)},2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
    );
  }
  const invoicePath = path.join(dir, 'invoices.csv');
  const orderPath = path.join(dir, 'purchase-orders.csv');
  writeFileSync(invoicePath, inv.join('\r\n') + '\r\n');
  writeFileSync(orderPath, po.join('\n') + '\n');
  return { invoicePath, orderPath, planted, unmatchedInvoices };
}

interface ChildReport {
  bestMs: number;
  times: number[];
  bestCpuMs: number;
  cpuTimes: number[];
  maxRssMb: number;
  heapMb: number;
  detail?: Record<string, unknown>;
}

/** Child mode: runs one operation `repeat` times on the files and prints a JSON report. */
async function child(mode: string, invoicePath: string, orderPath: string, repeat: number) {
  const invoiceText = readFileSync(invoicePath, 'utf8');
  const orderText = readFileSync(orderPath, 'utf8');
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let detail: Record<string, unknown> | undefined;
  for (let r = 0; r < repeat; r++) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    if (mode === 'parse') {
      const a = Papa.parse<Record<string, string>>(invoiceText, { header: true, skipEmptyLines: true });
      const b = Papa.parse<Record<string, string>>(orderText, { header: true, skipEmptyLines: true });
      detail = { invoiceRows: a.data.length, orderRows: b.data.length };
    } else {
      const result = await reconcile({ name: 'invoices.csv', data: invoiceText }, { name: 'purchase-orders.csv', data: orderText });
      const m = result.metadata;
      detail = {
        invoiceRows: m.invoice_rows,
        orderRows: m.purchase_order_rows,
        matched: m.matched_rows,
        linesWithDiscrepancies: m.lines_with_discrepancies,
        discrepancies: m.discrepancy_count,
        unmatchedInvoices: m.unmatched_invoice_rows,
        unmatchedOrders: m.unmatched_purchase_order_rows,
        matchRate: m.match_rate,
        engineMs: m.time_taken_ms,
      };
    }
    times.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  const report: ChildReport = {
    bestMs: Math.min(...times),
    times,
    bestCpuMs: Math.min(...cpuTimes),
    cpuTimes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapMb: process.memoryUsage().heapUsed / 1024 / 1024,
    detail,
  };
  process.stdout.write(JSON.stringify(report));
}

function runChild(mode: string, invoicePath: string, orderPath: string, repeat: number, heapMb?: number): ChildReport {
  const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
  const nodeOptions = heapMb ? `--max-old-space-size=${heapMb}` : '';
  const out = execFileSync(tsx, [__filename, '--child', mode, invoicePath, orderPath, String(repeat)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, nodeOptions].filter(Boolean).join(' ') },
  });
  return JSON.parse(out) as ChildReport;
}

/**
 * The comparison endpoint over HTTP (POST /api/platform/invoice_reconciliation/comparison, the
 * two files as base64, as the browser sends them): the real server with every plugin on a new
 * embedded database, one verified user; prints the best of `repeat` calls and the reply's size.
 */
async function endpoint(invoicePath: string, orderPath: string, repeat: number): Promise<void> {
  await import('reflect-metadata');
  const { buildServer } = await import('../../src/server/app');
  const { loadConfig } = await import('../../src/server/config');
  const { discoverServerPlugins } = await import('../../src/server/plugin-loader');
  const T = await import('../../src/server/tokens');
  const { Argon2Hasher } = await import('../../src/server/auth/password');
  const repo = path.resolve(__dirname, '../..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reconcile-http-'));
  const invoice = readFileSync(invoicePath);
  const orders = readFileSync(orderPath);
  const needMb = Math.ceil(((invoice.length + orders.length) * 4) / 3 / 1024 / 1024) + 2;
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error', CLIENT_DIR: path.join(dataDir, 'none'), MAX_UPLOAD_MB: String(Math.max(10, needMb)) },
    repo,
  );
  const server = await buildServer({ config, plugins: await discoverServerPlugins(path.join(repo, 'plugins')), logger: false });
  try {
    const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const db = server.container.get(T.Db);
    const user = await db
      .insertInto('users')
      .values({
        name: 'Bench',
        email: 'bench@example.com',
        password_hash: await new Argon2Hasher().hash('correct horse battery staple'),
        role: 'bm',
        company_name: 'Bench Ltd',
        is_verified: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('managed_users').values({ user_id: user.id, external_id: 'bench' }).execute();
    const login = await fetch(`${url}/api/platform/api-jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench@example.com', password: 'correct horse battery staple' }),
    });
    const token = (await login.json()) as { access: string };
    const body = JSON.stringify({
      combination_id: 10,
      file1_name: 'invoices.csv',
      file1_binary: invoice.toString('base64'),
      file2_name: 'purchase-orders.csv',
      file2_binary: orders.toString('base64'),
    });
    const times: number[] = [];
    let replyBytes = 0;
    for (let r = 0; r < repeat; r++) {
      const t = performance.now();
      const res = await fetch(`${url}/api/platform/invoice_reconciliation/comparison`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access}` },
        body,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`comparison: ${res.status} ${text.slice(0, 300)}`);
      times.push(performance.now() - t);
      replyBytes = Buffer.byteLength(text);
    }
    console.log(
      `${'POST comparison over HTTP (base64, both files)'.padEnd(44)} ${(Math.min(...times) / 1000).toFixed(3).padStart(7)} s   request ${(Buffer.byteLength(body) / 1024 / 1024).toFixed(1)} MB, reply ${(replyBytes / 1024 / 1024).toFixed(1)} MB   runs ${times.map((x) => x.toFixed(0)).join('/')} ms`,
    );
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    const [mode, invoicePath, orderPath, repeat] = process.argv.slice(childAt + 1);
    await child(mode, invoicePath, orderPath, Number(repeat));
    return;
  }
  const rows = Number(arg('rows', '100000'));
  const repeat = Number(arg('repeat', rows >= 500000 ? '1' : '3'));
  const rounds = Number(arg('rounds', rows >= 500000 ? '1' : '2'));
  const heap = arg('max-old-space-size', '');
  const dir = mkdtempSync(path.join(tmpdir(), 'reconcile-bench-'));
  try {
    const t = performance.now();
    const files = generate(dir, rows);
    const sizeMb = (readFileSync(files.invoicePath).length + readFileSync(files.orderPath).length) / 1024 / 1024;
    console.log(
      `Reconciliation benchmark — node ${process.version}, ${rows.toLocaleString('en-US')} rows per file, ${sizeMb.toFixed(1)} MB in all, best of ${repeat} run(s) × ${rounds} round(s)`,
    );
    console.log(
      `generated in ${((performance.now() - t) / 1000).toFixed(2)} s: ${files.planted} lines with a planted discrepancy, ${files.unmatchedInvoices} unmatched keys per side\n`,
    );
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(', ');
    console.log(`load average before: ${load()}`);
    const merge = (a: ChildReport | undefined, b: ChildReport): ChildReport =>
      a
        ? {
            bestMs: Math.min(a.bestMs, b.bestMs),
            times: [...a.times, ...b.times],
            bestCpuMs: Math.min(a.bestCpuMs, b.bestCpuMs),
            cpuTimes: [...a.cpuTimes, ...b.cpuTimes],
            maxRssMb: Math.max(a.maxRssMb, b.maxRssMb),
            heapMb: Math.max(a.heapMb, b.heapMb),
            detail: b.detail,
          }
        : b;
    let parse: ChildReport | undefined;
    let match: ChildReport | undefined;
    for (let round = 0; round < rounds; round++) {
      parse = merge(parse, runChild('parse', files.invoicePath, files.orderPath, repeat, heap ? Number(heap) : undefined));
      match = merge(match, runChild('reconcile', files.invoicePath, files.orderPath, repeat, heap ? Number(heap) : undefined));
    }
    const line = (name: string, r: ChildReport) =>
      console.log(
        `${name.padEnd(44)} ${(r.bestMs / 1000).toFixed(3).padStart(7)} s (CPU ${(r.bestCpuMs / 1000).toFixed(3)} s)   peak RSS ${r.maxRssMb.toFixed(0).padStart(5)} MB   heap after ${r.heapMb.toFixed(0).padStart(5)} MB   runs ${r.times.map((x) => x.toFixed(0)).join('/')} ms`,
      );
    line('PapaParse alone (header: true, both files)', parse!);
    line('read + match (reconcile)', match!);
    console.log(
      `\nratio reconcile / bare parse: ${(match!.bestMs / parse!.bestMs).toFixed(2)}× wall clock, ${(match!.bestCpuMs / parse!.bestCpuMs).toFixed(2)}× CPU time`,
    );
    console.log('result:', JSON.stringify(match!.detail));
    if (!process.argv.includes('--no-http')) {
      // the endpoint reads at most RECONCILE_MAX_ROWS rows a file (it refuses more, asking for a split)
      const httpRows = Math.min(rows, RECONCILE_MAX_ROWS);
      const pair = httpRows === rows ? files : generate(dir, httpRows);
      if (httpRows < rows) console.log(`\nthe endpoint reads at most ${httpRows.toLocaleString('en-US')} rows a file: timed on a pair of that size`);
      await endpoint(pair.invoicePath, pair.orderPath, repeat);
    }
    console.log(`load average after: ${load()}`);
  } finally {
    if (process.argv.includes('--keep')) console.log(`files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
