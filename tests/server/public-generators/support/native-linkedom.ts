import nodeModule from 'node:module';
import path from 'node:path';

/**
 * linkedom's CommonJS build reaches ESM-only packages (css-select's domelementtype) that Jest's
 * CommonJS runtime cannot load on Node 20 with the current transformIgnorePatterns; Node itself
 * can (require(esm) is on in Node 20.19+). Tests that read web pages load linkedom through Node:
 *
 *   jest.mock('linkedom', () => jest.requireActual('…/support/native-linkedom').loadLinkedomNatively());
 */
export function loadLinkedomNatively(): unknown {
  const load = (nodeModule as unknown as { _load(request: string, parent: null, isMain: boolean): unknown })._load;
  return load(path.resolve(__dirname, '../../../../node_modules/linkedom/cjs/index.js'), null, false);
}
