/**
 * @jest-environment node
 */
import path from 'node:path';
import { ESLint } from 'eslint';

const repo = path.resolve(__dirname, '../../..');

/**
 * The borders of eslint.config.mjs, checked with ESLint's own Node API on small texts given fake
 * paths: a plugin never imports another plugin, reaches src/core, src/server and src/app only
 * through their faces, src/core imports neither runtime and src/server never imports src/app.
 * The imported files exist (the rule resolves each import to a file before it classifies it).
 */
describe('npm run lint: the boundaries rule', () => {
  const eslint = new ESLint({ cwd: repo });

  async function problems(file: string, code: string): Promise<Array<{ line: number; rule: string | null; message: string }>> {
    const [result] = await eslint.lintText(code, { filePath: path.join(repo, file) });
    return result.messages.map((m) => ({ line: m.line, rule: m.ruleId, message: m.message }));
  }

  it('refuses a plugin importing another plugin, naming both', async () => {
    expect(
      await problems(
        'plugins/sneaky-plugin/server.ts',
        `import { catalogue } from '../document-extraction/catalogue';\nimport { definePlugin } from '../invoice-extraction/index';\nexport const x = [catalogue, definePlugin];\n`,
      ),
    ).toEqual([
      {
        line: 1,
        rule: 'boundaries/dependencies',
        message:
          'A plugin never imports another plugin (sneaky-plugin imports document-extraction): move the shared code to src/server or src/app and export it from their public faces, or provide it as a service.',
      },
      {
        line: 2,
        rule: 'boundaries/dependencies',
        message:
          'A plugin never imports another plugin (sneaky-plugin imports invoice-extraction): move the shared code to src/server or src/app and export it from their public faces, or provide it as a service.',
      },
    ]);
  });

  it('lets a plugin import its own files, the public faces, its schemas and packages', async () => {
    expect(
      await problems(
        'plugins/document-extraction/extra.ts',
        [
          `import { catalogue } from './catalogue';`,
          `import { T } from '../../src/server';`,
          `import { definePlugin } from '../../src/app';`,
          `import { SOLUTIONS } from '../../src/core';`,
          `import schema from '../../schemas/document-extraction/job.schema.json';`,
          `import { sql } from 'kysely';`,
          `export const x = [catalogue, T, definePlugin, SOLUTIONS, schema, sql];`,
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a deep path of src/server, src/app or src/core from a plugin', async () => {
    const found = await problems(
      'plugins/sneaky-plugin/server.ts',
      [
        `import { migrate } from '../../src/server/db/migrate';`,
        `import { Panel } from '../../src/app/components/Panel';`,
        `import { KeyedRegistry } from '../../src/core/registry';`,
        `export const x = [migrate, Panel, KeyedRegistry];`,
        '',
      ].join('\n'),
    );
    expect(found).toEqual([
      {
        line: 1,
        rule: 'boundaries/dependencies',
        message: 'A plugin imports src/server only through its public face (src/server/index.ts), not db/migrate.ts.',
      },
      {
        line: 2,
        rule: 'boundaries/dependencies',
        message: 'A plugin imports src/app only through its public face (src/app/index.ts), not components/Panel.tsx.',
      },
      { line: 3, rule: 'boundaries/dependencies', message: 'A plugin imports src/core only through its public face (src/core/index.ts), not registry.ts.' },
    ]);
  });

  it("lets a plugin's tests import the testing faces (src/app/testing, src/server/testing), not a deep path of them", async () => {
    expect(
      await problems(
        'plugins/document-search/view.test.tsx',
        `import { renderInShell } from '../../src/app/testing';\nimport { startPluginServer } from '../../src/server/testing';\nexport const x = [renderInShell, startPluginServer];\n`,
      ),
    ).toEqual([]);
    expect(
      await problems(
        'plugins/document-search/view.test.tsx',
        `import { testShell } from '../../src/app/testing/render';\nimport { recipeOf } from '../../src/server/testing/recipes';\nexport const x = [testShell, recipeOf];\n`,
      ),
    ).toEqual([
      {
        line: 1,
        rule: 'boundaries/dependencies',
        message: 'A plugin imports src/app only through its public face (src/app/index.ts), not testing/render.tsx.',
      },
      {
        line: 2,
        rule: 'boundaries/dependencies',
        message: 'A plugin imports src/server only through its public face (src/server/index.ts), not testing/recipes.ts.',
      },
    ]);
  });

  it('keeps src/core free of both runtimes and src/server free of src/app; tests are free', async () => {
    expect(await problems('src/core/sneaky.ts', `import { T } from '../server';\nexport const x = T;\n`)).toEqual([
      { line: 1, rule: 'boundaries/dependencies', message: 'src/core is the kernel of both runtimes: it imports neither src/server nor any plugin.' },
    ]);
    expect(await problems('src/server/sneaky.ts', `import { definePlugin } from '../app';\nexport const x = definePlugin;\n`)).toEqual([
      { line: 1, rule: 'boundaries/dependencies', message: 'src/server never imports app code.' },
    ]);
    expect(
      await problems(
        'tests/unit/sneaky.test.ts',
        `import { migrate } from '../../src/server/db/migrate';\nimport { catalogue } from '../../plugins/document-extraction/catalogue';\nexport const x = [migrate, catalogue];\n`,
      ),
    ).toEqual([]);
  });
});
