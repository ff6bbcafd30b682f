import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Db } from '../../../src/server/db/database';
import type { ServerPlugin } from '../../../src/server/plugin';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import { openTestDatabase, startTestServer, startWithTwoUsers, type TestServer, type TestUser } from '../../support/server';
import connector from '../../../schemas/catalogue/connector.schema.json';
import trigger from '../../../schemas/catalogue/trigger.schema.json';
import combination from '../../../schemas/catalogue/combination.schema.json';
import workflow from '../../../schemas/catalogue/workflow.schema.json';
import solution from '../../../schemas/catalogue/solution.schema.json';
import providerConnection from '../../../schemas/catalogue/provider-connection.schema.json';
import providerRecipe from '../../../schemas/catalogue/provider-recipe.schema.json';
import userRecipeRecord from '../../../schemas/catalogue/user-recipe-record.schema.json';

export const PLUGINS_DIR = path.resolve(__dirname, '../../../plugins');

/** A database that outlives one server, so a test can restart the server on it. */
export const openSharedDatabase = openTestDatabase;

/** Builds a server on a given database; close() leaves the database open. */
export const startOn = (db: Db, plugins: ServerPlugin[]): Promise<TestServer> => startTestServer({ db, plugins });

/** A server with every plugin of plugins/ (the real catalogue) and two users, alice and bob. */
export async function startCatalogueServer(): Promise<{ server: TestServer; alice: TestUser; bob: TestUser }> {
  const {
    server,
    users: [alice, bob],
  } = await startWithTwoUsers({ plugins: await discoverServerPlugins(PLUGINS_DIR) });
  return { server, alice, bob };
}

/** The reply schemas of schemas/catalogue/, for checking shapes. */
export function replySchemas() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const s of [connector, trigger, combination, workflow, solution, providerConnection, providerRecipe, userRecipeRecord]) ajv.addSchema(s);
  return (id: string, value: unknown): string[] => {
    const validate = ajv.getSchema(`catalogue/${id}`);
    if (!validate) throw new Error(`no schema catalogue/${id}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
