import nodeModule from 'node:module';
import path from 'node:path';

/**
 * linkedom's CommonJS build requires the ESM-only css-select, which Jest's CommonJS runtime cannot
 * load on Node 20 (the jest config does not transform it). Node itself can (require(esm) is on in
 * Node 20.19+), so tests load linkedom through Node's own loader:
 *
 *   jest.mock('linkedom', () => jest.requireActual('…/native-linkedom').loadLinkedomNatively());
 *
 * The lead can drop this once css-select & co. are added to transformIgnorePatterns.
 */
export function loadLinkedomNatively(): unknown {
  const load = (nodeModule as unknown as { _load(request: string, parent: null, isMain: boolean): unknown })._load;
  return load(path.resolve(__dirname, '../../../node_modules/linkedom/cjs/index.js'), null, false);
}
