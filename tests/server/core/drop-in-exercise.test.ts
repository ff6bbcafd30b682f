import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/server/db/database';

jest.setTimeout(600_000);

const repo = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(repo, 'tests/fixtures/drop-in');
const NAME = 'test-vat-check';
/** Never copied: installed, built, run-time or generated (the generated validators are git-ignored). */
const SKIP = new Set(['node_modules', '.git', 'dist', 'data', '.tmp', 'coverage']);

/** The repository's files: what git tracks or would (tracked and untracked, not ignored); without git, every file but SKIP. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter((f) => f && existsSync(path.join(repo, f)) && !SKIP.has(f.split('/')[0]));
  } catch {
    return walk(repo).filter((f) => !f.startsWith('src/app/forms/precompiled/'));
  }
}

/** Files under `root`, relative, '/'-separated, skipping SKIP folders and symbolic links. */
function walk(root: string, rel = ''): string[] {
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isSymbolicLink()) return [];
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : walk(root, p);
    return [p];
  });
}

const sha = (file: string) => createHash('sha1').update(readFileSync(file)).digest('hex');

/** Runs a command to its end; resolves with its exit code and output. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The environment of a child run: this one's without Jest's worker variables and the test databases. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('JEST_') && !['TEST_DATABASE_URL', 'TEST_REDIS_URL', 'DATABASE_URL', 'REDIS_URL'].includes(k)),
  );
  return { ...env, ...extra };
}

/**
 * The drop-in exercise of issue 22, done as a product team would following the README alone: a
 * temporary copy of the repository (node_modules linked, nothing generated, no dist/) gets
 * plugins/test-vat-check/ and schemas/test-vat-check/ from tests/fixtures/drop-in: a workflow page
 * with an rjsf form and a route, a migration, catalogue entries, a connector of its own with OAuth 2
 * and a local sandbox, an engine action with settings and auth on that connector (defineAction), a
 * push trigger its route starts (defineTrigger, PushTriggers), and the plugin's own view and server
 * tests written with the testing kit. There `npm run test:plugin -- test-vat-check` passes and the
 * server starts with the plugin, and no file outside those two folders was edited: the form's
 * validator is generated (git-ignored), not committed.
 *
 * It runs Jest and the server in child processes (about 1-2 minutes). The integration run
 * (TEST_DATABASE_URL) skips it: nothing in it depends on the database engine.
 */
const suite = process.env.TEST_DATABASE_URL ? describe.skip : describe;

suite('the drop-in exercise in a temporary copy of the repository', () => {
  let copy: string;
  let before: Map<string, string>;
  let dropped: string[];
  let server: ChildProcess | undefined;

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'flowmatic-drop-in-'));
    before = new Map();
    for (const f of repositoryFiles()) {
      mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      copyFileSync(path.join(repo, f), path.join(copy, f));
      before.set(f, sha(path.join(copy, f)));
    }
    symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    // the two folders, as written (the fixture keeps its sources as .txt, out of this repository's own checks)
    dropped = walk(FIXTURE).filter((f) => f.startsWith('plugins/') || f.startsWith('schemas/'));
    for (const f of dropped) {
      const target = path.join(copy, f.replace(/\.txt$/, ''));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(FIXTURE, f), target);
    }
    dropped = dropped.map((f) => f.replace(/\.txt$/, ''));
  });

  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('copies a repository with nothing generated in it, and drops in only the two folders', () => {
    expect(before.size).toBeGreaterThan(500);
    expect(
      [...before.keys()].filter((f) => f.startsWith('src/app/forms/precompiled/') || f.startsWith(`plugins/${NAME}/`) || f.startsWith(`schemas/${NAME}/`)),
    ).toEqual([]);
    expect(dropped.sort()).toEqual([
      `plugins/${NAME}/VatCheckView.tsx`,
      `plugins/${NAME}/connector.ts`,
      `plugins/${NAME}/index.ts`,
      `plugins/${NAME}/sandbox.ts`,
      `plugins/${NAME}/server.test.ts`,
      `plugins/${NAME}/server.ts`,
      `plugins/${NAME}/view.test.tsx`,
      `schemas/${NAME}/check.form.schema.json`,
    ]);
  });

  it("runs the plugin's tests there with one command: npm run test:plugin -- test-vat-check", async () => {
    const result = path.join(copy, '.tmp', 'plugin-tests.json');
    mkdirSync(path.dirname(result), { recursive: true });
    const { code, out } = await run(process.execPath, ['tests/support/jest-run.mjs', '--plugin', NAME, '--ci', '--json', `--outputFile=${result}`], {
      cwd: copy,
      env: childEnv(),
    });
    if (code !== 0) throw new Error(`npm run test:plugin -- ${NAME} failed (exit ${code}):\n${out.slice(-6000)}`);
    expect(out).toContain(`Plugin ${NAME}: 2 test files\n  plugins/${NAME}/server.test.ts\n  plugins/${NAME}/view.test.tsx\n`);
    const report = JSON.parse(readFileSync(result, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      testResults: Array<{ name: string; status: string; assertionResults: Array<{ title: string; status: string }> }>;
    };
    expect([report.numPassedTests, report.numFailedTests, report.numPendingTests]).toEqual([6, 0, 0]);
    expect(
      report.testResults
        .map((r) => [path.relative(copy, r.name).split(path.sep).join('/'), r.status, r.assertionResults.map((a) => `${a.status}: ${a.title}`)])
        .sort(),
    ).toEqual([
      [
        `plugins/${NAME}/server.test.ts`,
        'passed',
        [
          'passed: is in the catalogue and checks numbers through its route, keeping each check',
          'passed: connects the VAT registry through its sandbox (OAuth 2)',
          'passed: runs its recipe: the upload through the webhook, then the registry lookup with the connected account',
          'passed: starts a run from its own route (a push trigger) and refuses while the recipe is stopped',
        ],
      ],
      [
        `plugins/${NAME}/view.test.tsx`,
        'passed',
        ["passed: checks a number through the route and says the form schema's sentences first", "passed: shows the server's sentence when it refuses"],
      ],
    ]);
    // the form's validator was generated by the test run, from the plugin's schema
    expect(readdirSync(path.join(copy, 'src/app/forms/precompiled'))).toContain('test-vat-check-check.ts');
    rmSync(path.join(copy, '.tmp'), { recursive: true, force: true });
  });

  it('starts the server there with the plugin loaded: its route answers, its catalogue is seeded', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-drop-in-data-'));
    try {
      server = spawn(path.join(copy, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
        cwd: copy,
        env: childEnv({
          NODE_ENV: 'development',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          SECRET_KEY: 'drop-in-exercise-secret-key-that-is-long-enough-0123',
          SANDBOX_PROVIDERS: 'true',
          SANDBOX_PORT: '0',
          INBOUND_SMTP_PORT: '0',
          LOG_FORMAT: 'json',
          SHUTDOWN_DRAIN_MS: '0',
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      server.stdout!.on('data', (d) => (log += d));
      server.stderr!.on('data', (d) => (log += d));
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The server did not start within 120 s:\n${log.slice(-4000)}`)), 120_000);
        const look = () => {
          const m = /the API at (http:\/\/[^\s]+) \(.*plugins: ([^)"]*)\)/.exec(log);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        };
        server!.stdout!.on('data', look);
        server!.on('exit', (code) => reject(new Error(`The server exited (${code}) before serving:\n${log.slice(-4000)}`)));
      });
      const plugins = /plugins: ([^)"]*)\)/.exec(log)![1].split(', ');
      expect(plugins).toContain(NAME);
      expect(plugins).toContain('catalogue-core');

      expect((await fetch(`${address}/readyz`)).status).toBe(200);
      const guarded = await fetch(`${address}/api/plugins/${NAME}/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"number":"DE123456789"}',
      });
      expect(guarded.status).toBe(401);
      const missing = await fetch(`${address}/api/plugins/${NAME}/nothing-here`);
      expect([missing.status, await missing.json()]).toEqual([404, { status: 'error', message: 'Not found.' }]);

      const exited = new Promise<number | null>((resolve) => server!.on('exit', (code) => resolve(code)));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      // the catalogue was seeded from the dropped-in plugin: read from the stopped server's database
      const db = await openDatabase({ dataDir });
      try {
        expect(await db.selectFrom('workflows').select(['id', 'name']).where('id', '=', 900201).execute()).toEqual([{ id: 900201, name: 'VAT Number Check' }]);
        expect(await db.selectFrom('combinations').select(['id', 'workflow_id', 'name']).where('workflow_id', '=', 900201).orderBy('id').execute()).toEqual([
          { id: 900201, workflow_id: 900201, name: 'VAT Number Check with the registry' },
          { id: 900202, workflow_id: 900201, name: 'VAT Number Check from the page' },
        ]);
      } finally {
        await db.destroy();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('edited no file outside the two folders: every copied file is as it was, and the only new ones are generated (git-ignored)', () => {
    const changed = [...before].filter(([f, hash]) => !existsSync(path.join(copy, f)) || sha(path.join(copy, f)) !== hash).map(([f]) => f);
    expect(changed).toEqual([]);
    const added = walk(copy).filter((f) => !before.has(f) && !dropped.includes(f));
    expect([...new Set(added.map((f) => path.posix.dirname(f)))]).toEqual(['src/app/forms/precompiled']);
    if (existsSync(path.join(repo, '.git'))) {
      // and git ignores them: nothing to commit
      const ignored = execFileSync('git', ['check-ignore', '--no-index', ...added], { cwd: repo, encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(ignored.sort()).toEqual(added.sort());
    }
    expect(statSync(path.join(copy, 'src/app/forms/precompiled/index.ts')).isFile()).toBe(true);
  });
});
