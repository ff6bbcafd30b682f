/**
 * @jest-environment node
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(__dirname, '../../..');

/**
 * Plugins import src/app, src/server and src/core only through their public faces (each folder's
 * index.ts), never a deeper path: the faces are the contract, everything behind them may move.
 */
export function deepImports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)) {
    const spec = m[1];
    if (!spec.startsWith('.')) continue;
    const target = path.relative(repo, path.resolve(path.dirname(file), spec)).replace(/\\/g, '/');
    // the testing faces (src/app/testing, src/server/testing) are public faces too: plugins' tests import them
    if (/^src\/(app|server|core)\/.+/.test(target) && !/^src\/(app|server)\/testing(\/index(\.tsx?)?)?$/.test(target))
      out.push(`${path.relative(repo, file)} imports ${spec}`);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(name) ? [p] : [];
  });
}

describe("plugins use only the runtimes' public faces", () => {
  it('no plugin file imports a deep path of src/app, src/server or src/core', () => {
    const violations = sourceFiles(path.join(repo, 'plugins')).flatMap((f) => deepImports(f, readFileSync(f, 'utf8')));
    expect(violations).toEqual([]);
  });

  it('the check catches a deep import, a deep dynamic import and a deep type import', () => {
    const file = path.join(repo, 'plugins', 'sneaky', 'index.ts');
    expect(
      deepImports(
        file,
        `import { Http } from '../../src/app/services/http';
         import type { Db } from '../../src/server/db/database';
         const v = import('../../src/core/plugin-registry');
         import { definePlugin } from '../../src/app';
         import { T } from '../../src/server';
         import { SOLUTIONS } from '../../src/core';
         import { renderInShell } from '../../src/app/testing';
         import { startPluginServer } from '../../src/server/testing/index';
         import { testShell } from '../../src/app/testing/render';
         import x from 'react';`,
      ),
    ).toEqual([
      'plugins/sneaky/index.ts imports ../../src/app/services/http',
      'plugins/sneaky/index.ts imports ../../src/server/db/database',
      'plugins/sneaky/index.ts imports ../../src/core/plugin-registry',
      'plugins/sneaky/index.ts imports ../../src/app/testing/render',
    ]);
  });
});
