/**
 * Document search benchmark: `npx tsx tests/bench/search.ts` (BENCH_DOCS=20000 for a quicker run).
 *
 * Indexes 100,000 generated one-page documents (about 300 words each, Zipf-distributed words from
 * a 20,000-word vocabulary, all owned by one user: the worst case, since a search only ranks its
 * owner's documents) and runs 300 one- to three-word queries through DocumentIndex.search, the
 * code behind POST /api/nlp-document-store/query (ranking and passages included). Prints p50/p95/
 * p99 per engine: PGlite in memory, and PostgreSQL when TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test answers (in a fresh schema, dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/database';
import { DocumentIndex, documentsMigration } from '../../plugins/document-search/index-service';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const WORDS_PER_DOC = 300;
const VOCABULARY = 20_000;
const QUERIES = 300;
const WARM_UP = 30;
const OWNER = 1;
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A small deterministic generator, so every engine gets the same corpus and queries. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEAD_WORDS = (
  'the of and to a in for is on that with by as at from this be are or an it will was your our we ' +
  'invoice payment supplier order customer contract account delivery report budget quarter team ' +
  'project meeting review policy service price cost tax receipt balance schedule approval manager ' +
  'office travel expense claim refund credit debit bank transfer statement purchase sales revenue ' +
  'forecast audit compliance risk insurance employee holiday salary pension training product stock ' +
  'warehouse shipment freight customs contractor agreement termination notice renewal license ' +
  'software hardware support ticket incident outage security password access network server backup'
).split(' ');

/** The vocabulary: common words first (real ones, then made-up ones that stem like real ones). */
function vocabulary(): string[] {
  const r = rng(7);
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vel', 'dor', 'pin', 'sul', 'mar', 'tek', 'bri', 'fon', 'gal', 'hes', 'jun', 'qua', 'zor'];
  const endings = ['', '', 'ing', 'ed', 's', 'ment', 'ion', 'er', 'ly'];
  const words = new Set(HEAD_WORDS);
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += syllables[Math.floor(r() * syllables.length)];
    words.add(w + endings[Math.floor(r() * endings.length)]);
  }
  return [...words];
}

/** Draws word ranks with probability ∝ 1 / (rank + 2) (Zipf, s = 1). */
function zipfSampler(size: number, r: () => number) {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let i = 0; i < size; i++) cumulative[i] = total += 1 / (i + 2);
  return () => {
    const x = r() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function* documents(words: string[]) {
  const r = rng(42);
  const draw = zipfSampler(words.length, r);
  for (let d = 0; d < DOCS; d++) {
    const parts: string[] = [];
    for (let i = 0; i < WORDS_PER_DOC; i++) parts.push(words[draw()] + (r() < 0.07 ? '.' : ''));
    yield { key: `${d.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000.txt`, name: `document-${d}.txt`, text: parts.join(' ') };
  }
}

/** Queries of 1–3 content words, drawn by frequency as people search for words that occur. */
function queries(words: string[]): string[] {
  const r = rng(99);
  const draw = zipfSampler(words.length, r);
  const stop = new Set(HEAD_WORDS.slice(0, 24));
  const out: string[] = [];
  while (out.length < QUERIES + WARM_UP) {
    const n = 1 + (out.length % 3);
    const q: string[] = [];
    while (q.length < n) {
      const w = words[draw()];
      if (!stop.has(w) && !q.includes(w)) q.push(w);
    }
    out.push(q.join(' '));
  }
  return out;
}

async function fill(db: Kysely<any>, words: string[]) {
  const t = performance.now();
  let batch: { key: string; name: string; text: string }[] = [];
  const flush = async () => {
    await sql`insert into documents (owner, bucket, key, name, text)
      select ${OWNER}, 'uploads', k, n, t from unnest(${batch.map((b) => b.key)}::text[], ${batch.map((b) => b.name)}::text[], ${batch.map((b) => b.text)}::text[]) as x(k, n, t)`.execute(db);
    batch = [];
  };
  for (const doc of documents(words)) {
    batch.push(doc);
    if (batch.length === 1000) await flush();
  }
  if (batch.length) await flush();
  await sql`analyze documents`.execute(db);
  return (performance.now() - t) / 1000;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function run(engine: string, db: Kysely<any>) {
  const words = vocabulary();
  await documentsMigration.up(db);
  const loadSec = await fill(db, words);
  const index = new DocumentIndex(db);
  const qs = queries(words);
  for (const q of qs.slice(0, WARM_UP)) await index.search(OWNER, q);
  const byWords: Record<number, number[]> = { 1: [], 2: [], 3: [] };
  const all: number[] = [];
  let hits = 0;
  for (const q of qs.slice(WARM_UP)) {
    const t = performance.now();
    const found = await index.search(OWNER, q);
    const ms = performance.now() - t;
    hits += found.length > 0 ? 1 : 0;
    all.push(ms);
    byWords[q.split(' ').length].push(ms);
  }
  const line = (label: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `  ${label.padEnd(10)} n=${String(s.length).padStart(3)}  p50 ${pct(s, 50).toFixed(1).padStart(6)} ms  p95 ${pct(s, 95).toFixed(1).padStart(6)} ms  p99 ${pct(s, 99).toFixed(1).padStart(6)} ms  max ${s[s.length - 1].toFixed(1).padStart(6)} ms`;
  };
  console.log(`\n${engine}: ${DOCS.toLocaleString('en-GB')} documents indexed in ${loadSec.toFixed(1)} s; ${hits}/${QUERIES} queries found something`);
  console.log(line('all', all));
  for (const n of [1, 2, 3]) console.log(line(`${n} word${n > 1 ? 's' : ''}`, byWords[n]));
}

async function main() {
  console.log(`Search benchmark: ${DOCS.toLocaleString('en-GB')} documents × ${WORDS_PER_DOC} words, one owner, ${QUERIES} queries (10 results each, with passages)`);

  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    await run('PGlite (in memory)', lite);
  } finally {
    await lite.destroy();
  }

  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    console.log(`\nPostgreSQL at ${PG_URL} is not reachable (${(e as Error).message}); skipped.`);
    return;
  }
  await admin.query(`create schema ${schema}`);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 2, options: `-c search_path=${schema}` }) }) });
  try {
    const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db);
    await run(`PostgreSQL ${rows[0].v}`, db);
  } finally {
    await db.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
