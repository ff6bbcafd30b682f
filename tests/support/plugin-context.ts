import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ClientPlugin } from '../../src/app/plugin';

/**
 * The Jest stand-in for src/app/plugin-context.ts: the same discovery rule (every
 * plugins/<name>/index.ts(x)) read from the file system instead of webpack's require.context.
 * PLUGINS_DIR points it at a fixture folder.
 */
export function discoverPlugins(dir = process.env.PLUGINS_DIR ?? path.resolve(__dirname, '../../plugins')): ClientPlugin[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .map((name) => ['index.tsx', 'index.ts'].map((f) => path.join(dir, name, f)).find((f) => existsSync(f)))
    .filter((f): f is string => !!f)
    .map((f) => {
      const mod = require(f) as { default?: ClientPlugin };
      if (!mod.default?.id) throw new Error(`${f} must default-export definePlugin({...})`);
      return mod.default;
    });
}
