/**
 * The server's testing face: what a plugin's server tests use (plugins/<name>/server*.test.ts).
 * A real server on an in-memory PGlite with the core catalogue and one plugin, typed fakes of
 * its services, users, and recipes driven the way a browser and a webhook drive them.
 *
 *   import { startPluginServer, createUser, recipeOf, fake } from '../../src/server/testing';
 *   import { T } from '../../src/server';
 *
 * Test ids: workflows and combinations from 900000 to 999999 and plugin ids starting `test-` are
 * kept for tests (TEST_IDS); no real plugin takes them (tests/server/core/drop-in-plugin.test.ts).
 */
export {
  startTestServer,
  createUser,
  startWithTwoUsers,
  openTestDatabase,
  login,
  registerUser,
  registerAndVerify,
  linkIn,
  CapturingMailer,
  type TestServer,
  type TestServerOptions,
  type TestUser,
  type TestDatabase,
} from './server';
export { fake, replace, type Fake, type AnyFake } from '../../core/testing';
export { startPluginServer, loadServerPlugin, PLUGINS_DIR, CORE_CATALOGUE, type PluginServerOptions } from './plugin-server';
export { connectAccount, widgetToken } from './connections';
export { recipeOf, type TestRecipe, type TestRun, type TestJob, type TestStep } from './recipes';
export { TEST_IDS, isTestId } from './test-ids';
