import { readFileSync } from 'node:fs';
import path from 'node:path';

// src/app/forms/rjsf-registry/ stands in for @rjsf/core's registry index files in the browser
// build (webpack.config.ts): it must list every field, widget and template rjsf's own index does,
// or an rjsf upgrade that adds one would lose it in the browser only. (Compared as text: the
// replacement modules import rjsf's ESM files, which Jest's CommonJS run does not load.)
const repo = path.resolve(__dirname, '../../..');

/** The keys of the object the index's default function returns (`Name,` or `Name: Value,`). */
function registryKeys(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const body = /return \{([\s\S]*?)\n\s*\}( as \w+)?;/.exec(text)?.[1] ?? '';
  return body
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, '').trim())
    .filter(Boolean)
    .map((l) => /^(\w+)/.exec(l)?.[1])
    .filter((k): k is string => !!k)
    .sort();
}

describe("the browser build's rjsf registry", () => {
  it.each(['fields', 'widgets', 'templates'])('%s: the same names as @rjsf/core', (kind) => {
    const theirs = registryKeys(path.join(repo, `node_modules/@rjsf/core/lib/components/${kind}/index.js`));
    const ours = registryKeys(path.join(repo, `src/app/forms/rjsf-registry/${kind}.ts`));
    expect(theirs.length).toBeGreaterThan(5);
    expect(ours).toEqual(theirs);
  });
});
