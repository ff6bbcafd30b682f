/**
 * `npm start`'s first half: builds the browser client only when its inputs changed since the
 * last build. The inputs are every file the client build reads (the browser shell and core,
 * plugins, schemas, the build settings and the lockfile); their content hash is kept beside the
 * build in dist/.build-hash. Server-only files (src/server, plugins' server*.ts) are left out, so
 * a change to the server restarts in seconds. `npm run build` always builds.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');
const dist = path.join(repo, 'dist');
const stamp = path.join(dist, '.build-hash');

const ROOTS = ['src/app', 'src/core', 'plugins', 'schemas'];
const FILES = ['webpack.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

/** Server-side files of a plugin, and tests: no part of the client bundle. */
function serverOnly(rel: string): boolean {
  const base = path.basename(rel);
  return /^server.*\.ts$/.test(base) || /\.test\.tsx?$/.test(base);
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(root, full, out);
    } else out.push(path.relative(root, full));
  }
}

/** The content hash of the client build's inputs (paths and bytes, in a stable order). */
export function clientInputsHash(root = repo): string {
  const files: string[] = [...FILES.filter((f) => existsSync(path.join(root, f)))];
  for (const dir of ROOTS) if (existsSync(path.join(root, dir))) walk(root, path.join(root, dir), files);
  const hash = createHash('sha256');
  for (const rel of files.filter((f) => !serverOnly(f)).sort()) {
    hash.update(rel.split(path.sep).join('/')).update('\0').update(readFileSync(path.join(root, rel))).update('\0');
  }
  return hash.digest('hex');
}

function main(): void {
  const hash = clientInputsHash();
  const built = existsSync(path.join(dist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
  if (built && !process.argv.includes('--force')) {
    console.log('The client in dist/ is up to date with its sources: not rebuilding (npm run build forces a build).');
    return;
  }
  console.log(existsSync(path.join(dist, 'index.html')) ? 'The client sources changed since the last build: building it.' : 'Building the client (the first start takes a minute or two).');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // hashed again after the build: the build regenerates the forms' validators under src/app
  writeFileSync(stamp, `${clientInputsHash()}\n`);
}

if (require.main === module) main();
