#!/usr/bin/env node
/**
 * `npm test` and `npm run test:plugin`: Jest's unit and server projects with the Node flag the
 * server tests need (--experimental-vm-modules: they load plugins and ES-module libraries with
 * import()), whatever the caller's shell.
 *
 *   npm test                                   every unit, component and server test
 *   npm test -- tests/server/harness.test.ts   one file (or any Jest pattern and option)
 *   npm run test:plugin -- my-workflow         one plugin's tests: plugins/my-workflow/**\/*.test.ts(x),
 *                                              and the tests under tests/ that name it (a folder or
 *                                              file called after it) or import from plugins/my-workflow/
 *
 * The caller's arguments come first and `--selectProjects unit server` last: Jest reads every
 * word after --selectProjects as a project name, so a path given after it was taken for a
 * project (and the whole suite ran).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEST_ROOTS = ['tests/unit', 'tests/component', 'tests/server'];

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules') walk(full, out);
    } else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One plugin's test files, from the repository root. */
export function pluginTests(name, root = repo) {
  const own = walk(path.join(root, 'plugins', name));
  const names = new RegExp(`(^|/)${escape(name)}(/|\\.|-)`);
  const imports = new RegExp(`['"][./]*plugins/${escape(name)}(/|['"])`);
  const named = TEST_ROOTS.flatMap((r) => walk(path.join(root, r))).filter((f) => {
    const rel = path.relative(root, f).split(path.sep).join('/');
    return names.test(rel.slice(rel.indexOf('/') + 1)) || imports.test(readFileSync(f, 'utf8'));
  });
  return [...own, ...named].map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function main() {
  let args = process.argv.slice(2);
  let patterns = [];
  if (args[0] === '--plugin') {
    const name = args[1];
    args = args.slice(2);
    if (!name || name.startsWith('-')) fail('Name the plugin: npm run test:plugin -- <plugin folder name>, e.g. npm run test:plugin -- document-search');
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) fail(`"${name}" is not a plugin folder name (lower-case letters, digits and dashes).`);
    if (!existsSync(path.join(repo, 'plugins', name))) {
      const known = readdirSync(path.join(repo, 'plugins')).filter((d) => statSync(path.join(repo, 'plugins', d)).isDirectory());
      fail(`There is no plugins/${name}/. Plugins: ${known.join(', ')}.`);
    }
    const files = pluginTests(name);
    if (!files.length) fail(`No tests found for plugin "${name}": add plugins/${name}/*.test.tsx (jsdom) or plugins/${name}/server*.test.ts (Node).`);
    console.log(`Plugin ${name}: ${files.length} test file${files.length === 1 ? '' : 's'}\n${files.map((f) => `  ${f}`).join('\n')}`);
    // exact paths, anchored, so "monitoring" does not also pick another plugin's "monitoring-x" file
    patterns = files.map((f) => `${escape(path.join(repo, f))}$`);
  }
  const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
  const nodeOptions = [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' ');
  const result = spawnSync(process.execPath, [jest, ...args, ...patterns, '--selectProjects', 'unit', 'server'], {
    cwd: repo,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  if (result.error) fail(`Could not start Jest: ${result.error.message}`);
  process.exit(result.status ?? 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
