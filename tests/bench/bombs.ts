/**
 * Decompression bombs: `npm run bench:bombs` (also part of `npm run bench`). Builds, at run
 * time, an XLSX whose one cell inflates to 300 MB, a three-sheet one (3 × 300 MB) and a PDF whose
 * content stream inflates to 100 MB, sends each to the financial analysis of a real server on a
 * loopback port, and while each is processed a second user polls a cheap endpoint. Prints the
 * peak extra RSS of the server process and the slowest other-user request per bomb (targets:
 * ≤ 256 MB extra, ≤ 200 ms). Asserts nothing. The builders are exported for the security tests.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Zip, ZipDeflate, Deflate, strToU8 } from 'fflate';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

const MB = 1024 * 1024;

function zipOf(entries: [string, (push: (chunk: Uint8Array, final: boolean) => void) => void][]): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  for (const [name, fill] of entries) {
    const file = new ZipDeflate(name, { level: 9 });
    zip.add(file);
    fill((chunk, final) => file.push(chunk, final));
  }
  zip.end();
  return Buffer.concat(out);
}

const text = (s: string) => (push: (chunk: Uint8Array, final: boolean) => void) => push(strToU8(s), true);

/** A sheet whose one cell holds `mb` megabytes of one letter: a few hundred KB zipped. */
function bombSheet(mb: number) {
  return (push: (chunk: Uint8Array, final: boolean) => void) => {
    push(
      strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>',
      ),
      false,
    );
    const piece = new Uint8Array(MB).fill(0x41);
    for (let i = 0; i < mb; i++) push(piece, false);
    push(strToU8('</t></is></c></row></sheetData></worksheet>'), true);
  };
}

/** An XLSX of `sheets` sheets, each one cell of `mb` MB. */
export function xlsxBomb(mb: number, sheets = 1): Uint8Array {
  const ids = Array.from({ length: sheets }, (_, i) => i + 1);
  return zipOf([
    [
      '[Content_Types].xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${ids.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
      ),
    ],
    [
      '_rels/.rels',
      text(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    ],
    [
      'xl/workbook.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${ids.map((i) => `<sheet name="Sheet${i}" sheetId="${i}" r:id="rId${i}"/>`).join('')}</sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      text(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${ids.map((i) => `<Relationship Id="rId${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('')}</Relationships>`,
      ),
    ],
    ...ids.map((i): [string, ReturnType<typeof bombSheet>] => [`xl/worksheets/sheet${i}.xml`, bombSheet(mb)]),
  ]);
}

/** A one-page PDF whose content stream inflates to `mb` MB (spaces after one line of text). */
export async function pdfBomb(mb: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Revenue 1,000 900', { x: 50, y: 780, size: 11, font });
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 9 }, (chunk) => parts.push(chunk));
  const spaces = new Uint8Array(MB).fill(0x20);
  for (let i = 0; i < mb; i++) deflate.push(spaces, i === mb - 1);
  const stream = doc.context.stream(Buffer.concat(parts), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  return doc.save();
}

async function main(): Promise<void> {
  const bombs: [string, string, () => Promise<Uint8Array> | Uint8Array][] = [
    ['XLSX, one cell inflating to 300 MB', 'bomb.xlsx', () => xlsxBomb(300)],
    ['XLSX, three sheets of 300 MB each', 'bomb3.xlsx', () => xlsxBomb(300, 3)],
    ['PDF, a content stream inflating to 100 MB', 'bomb.pdf', () => pdfBomb(100)],
  ];
  // built before any is sent: building one blocks this process (the server's too) for seconds
  const built = await Promise.all(bombs.map(async ([label, name, build]) => [label, name, await build()] as const));
  const { buildServer } = await import('../../src/server/app');
  const { loadConfig } = await import('../../src/server/config');
  const financialAnalysis = (await import('../../plugins/financial-analysis/server')).default;
  // the connectors its combinations name (manual upload, e-mail), declared as the connectors plugin does
  const { connectorDeclarations } = await import('../server/connections/fixtures/connector-declarations');
  const { Argon2Hasher } = await import('../../src/server/auth/password');
  const T = await import('../../src/server/tokens');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-bombs-'));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789',
      PUBLIC_URL: 'http://localhost:3000',
      CLIENT_DIR: path.join(dataDir, 'none'),
      AUTH_RATE_LIMIT: '100000',
      WRITE_RATE_LIMIT_PER_USER: '100000',
      WRITE_RATE_LIMIT_PER_ADDRESS: '100000',
      LOG_LEVEL: 'error',
      MAX_UPLOAD_MB: '10',
    },
    process.cwd(),
  );
  const server = await buildServer({
    config,
    plugins: [connectorDeclarations, financialAnalysis],
    logger: false,
    overrides: (c) => c.rebind(T.PasswordHasher).toConstantValue(new Argon2Hasher({ memoryCost: 1024, timeCost: 1 })),
  });
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(base + url, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const { createUser } = await import('../support/server');
  const asTestServer = { container: server.container, db: server.container.get(T.Db) } as never;
  const attacker = (await createUser(asTestServer)).access;
  const other = (await createUser(asTestServer)).access;
  await call('POST', '/api/platform/financialAnalysisConfig', attacker, { combination_id: 11, config_json: "{'SELECTED_FOCUS_AREA': 'sales-and-income'}" });

  for (let i = 0; i < 20; i++) await call('GET', '/api/platform/financialAnalysisConfig', other); // warm up
  console.log(`Decompression bombs — node ${process.version}\n`);
  const baseline = performance.now();
  let idleSlowest = 0;
  while (performance.now() - baseline < 3000) {
    const t = performance.now();
    await call('GET', '/api/platform/financialAnalysisConfig', other);
    idleSlowest = Math.max(idleSlowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(
    `${'no bomb (3 s of polling, the baseline)'.padEnd(44)} slowest other-user request ${idleSlowest.toFixed(0)} ms; load average ${require('node:os').loadavg()[0].toFixed(1)}`,
  );
  for (const [label, name, bytes] of built) {
    global.gc?.();
    const baseRss = process.memoryUsage().rss;
    let peak = baseRss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let done = false;
    let slowest = 0;
    const poller = (async () => {
      while (!done) {
        const t = performance.now();
        await call('GET', '/api/platform/financialAnalysisConfig', other);
        slowest = Math.max(slowest, performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    const start = await call('POST', '/api/platform/financial_analysis/start_comparison', attacker, {
      combination_id: 11,
      file_name: name,
      file_binary: Buffer.from(bytes).toString('base64'),
      default: false,
    });
    let state: any = start.body;
    while (start.status === 200) {
      state = (await call('POST', '/api/financial-analysis/complete/', attacker, { jobId: start.body.jobId })).body;
      if (state?.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    done = true;
    await poller;
    clearInterval(sampler);
    console.log(
      `${label.padEnd(44)} ${String(Math.round(bytes.length / 1024)).padStart(5)} KB   answered in ${seconds.toFixed(1).padStart(5)} s   peak extra RSS ${String(Math.round((peak - baseRss) / MB)).padStart(4)} MB   slowest other-user request ${slowest.toFixed(0).padStart(4)} ms`,
    );
    console.log(`${''.padEnd(44)} the job ${state?.status?.toLowerCase()}: ${state?.message ?? ''}`);
  }
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
