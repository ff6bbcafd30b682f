import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { openDatabase, type Db } from '../../../src/server/db/database';
import type { Database } from '../../../src/server/db/schema';
import type { ServerPlugin } from '../../../src/server/plugin';
import { Argon2Hasher } from '../../../src/server/auth/password';
import * as T from '../../../src/server/tokens';
import { CapturingMailer, type TestServer } from '../../support/server';
import connector from '../../../schemas/catalogue/connector.schema.json';
import trigger from '../../../schemas/catalogue/trigger.schema.json';
import combination from '../../../schemas/catalogue/combination.schema.json';
import workflow from '../../../schemas/catalogue/workflow.schema.json';
import solution from '../../../schemas/catalogue/solution.schema.json';
import providerConnection from '../../../schemas/catalogue/provider-connection.schema.json';
import providerRecipe from '../../../schemas/catalogue/provider-recipe.schema.json';
import userRecipeRecord from '../../../schemas/catalogue/user-recipe-record.schema.json';

export const PLUGINS_DIR = path.resolve(__dirname, '../../../plugins');

/**
 * A database that outlives one server, so a test can restart the server on it (the harness
 * gives each server its own): a fresh schema in TEST_DATABASE_URL, else an in-memory PGlite.
 */
export async function openSharedDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = await openDatabase({ dataDir: 'memory://' });
    return { db, drop: () => db.destroy() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: url, max: 5, options: `-c search_path=${schema}` });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    drop: async () => {
      await sql.raw(`drop schema ${schema} cascade`).execute(db);
      await db.destroy();
    },
  };
}

/** Builds a server on a given database, like startTestServer; close() leaves the database open. */
export async function startOn(db: Db, plugins: ServerPlugin[]): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-catalogue-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789', PUBLIC_URL: 'http://localhost:3000', CLIENT_DIR: path.join(dataDir, 'no-client') },
    process.cwd(),
  );
  const mailer = new CapturingMailer();
  let server;
  try {
    server = await buildServer({
      config,
      db,
      plugins,
      logger: false,
      overrides: (c) => {
        c.rebind(T.Mailer).toConstantValue(mailer);
        c.rebind(T.PasswordHasher).toConstantValue(new Argon2Hasher({ memoryCost: 1024, timeCost: 1 }));
      },
    });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const built = server;
  return {
    ...built,
    config,
    db,
    mailer,
    url: '',
    async call(method, target, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const res = await built.app.inject({ method: method as 'GET', url: target, payload: o.body as object, headers });
      let body: any = res.body;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body, headers: res.headers };
    },
    async close() {
      await built.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
