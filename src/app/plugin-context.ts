import type { ClientPlugin } from './plugin';

/**
 * Discovers browser plugins at build time: every `plugins/<name>/index.ts(x)` is bundled.
 * Dropping a folder in is the whole install. (Under Jest this module is mapped to a
 * file-system equivalent, tests/support/plugin-context.ts.)
 */
export function discoverPlugins(): ClientPlugin[] {
  const ctx = require.context('../../plugins', true, /^\.\/[^/]+\/index\.tsx?$/);
  return ctx
    .keys()
    .filter((k) => !k.startsWith('plugins/'))
    .sort()
    .map((k) => {
      const mod = ctx(k) as { default?: ClientPlugin };
      if (!mod.default?.id) throw new Error(`${k} must default-export definePlugin({...})`);
      return mod.default;
    });
}
