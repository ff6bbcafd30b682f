import nodeModule from 'node:module';
import path from 'node:path';

/**
 * oauth4webapi is ESM-only and the Jest config does not transform it, so Jest's CommonJS runtime
 * cannot load it; Node 20.19+ can (require(esm)). Tests load it through Node's own loader:
 *
 *   jest.mock('oauth4webapi', () => jest.requireActual('./native-oauth4webapi').loadOAuth4WebApi());
 *
 * The lead can drop this once 'oauth4webapi' is added to transformIgnorePatterns.
 */
export function loadOAuth4WebApi(): unknown {
  const load = (nodeModule as unknown as { _load(request: string, parent: null, isMain: boolean): unknown })._load;
  return load(path.resolve(__dirname, '../../../node_modules/oauth4webapi/build/index.js'), null, false);
}
