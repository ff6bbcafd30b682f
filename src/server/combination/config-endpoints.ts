/**
 * The saved-config endpoints of the spec (section 7: GET, POST, PUT
 * /api/platform/{invoiceReconciliationConfig|financialAnalysisConfig}[/{id}/]), generic over the
 * table and the config's JSON Schema, so every plugin with a saved combination config (invoice
 * reconciliation, financial analysis) shares one implementation. The config is stored as JSON (jsonb) and travels as the spec's Python-style
 * string (`config_json`), written with toPythonLiteral and read with the real parser
 * parsePythonLiteral, then validated against the same JSON Schema the rjsf form renders.
 * One row per (user, combination); another user's id answers 404, as if it did not exist.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { parsePythonLiteral, requestErrorSentence, toPythonLiteral, type SchemaIssue } from '../../core';
import { userOf } from '../auth/guard';
import type { Db } from '../db/database';
import type { Migration } from '../db/migrate';
import { HttpError, badRequest, notFound } from '../http/errors';
import { parseId } from '../http/ids';

/** The spec's reply: status, the row id, the combination and the config as a Python-style string. */
export interface ConfigReply {
  status: 'success';
  id: number | null;
  combination_id: number;
  config_json: string | null;
}

export interface ConfigRow {
  id: number;
  user_id: number;
  combination_id: number;
  config: Record<string, unknown>;
}

/** A config body that cannot be used: the message names what is wrong. */
export class ConfigInputError extends HttpError {
  constructor(message: string) {
    super(400, message);
    this.name = 'ConfigInputError';
  }
}

const ajv = new Ajv({ keywords: ['errorMessage'], verbose: true, allErrors: false, strictTypes: false, useDefaults: false, coerceTypes: false });

/** Compiles a config JSON Schema once (by $id). */
function compile(schema: object): ValidateFunction {
  const id = (schema as { $id?: string }).$id;
  return (id ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
}

/**
 * Reads a config_json string: a Python-style dict (single quotes, True/False/None) or JSON,
 * checked against the config's JSON Schema. A `combination_id` inside the dict is tolerated and
 * dropped (it is a column of its own). Throws ConfigInputError with a readable sentence.
 */
export function readConfigJson(configJson: string, schema: object): Record<string, unknown> {
  let value: unknown;
  try {
    value = parsePythonLiteral(configJson);
  } catch (error) {
    throw new ConfigInputError(`config_json could not be read: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigInputError("config_json must be a dict of settings, e.g. \"{'NAME': 'value'}\".");
  const { combination_id: _ignored, ...config } = value as Record<string, unknown>;
  void _ignored;
  const validate = compile(schema);
  if (!validate(config)) {
    const issues = (validate.errors ?? []) as SchemaIssue[];
    const extra = issues.find((i) => i.keyword === 'additionalProperties');
    if (extra) throw new ConfigInputError(`config_json has a setting this workflow does not know: ${String(extra.params.additionalProperty)}.`);
    throw new ConfigInputError(requestErrorSentence(issues).replace(/^The request body/, 'The config'));
  }
  return config;
}

/** The migration creating a config table: one row per (user, combination). */
export function configTableMigration(id: string, table: string): Migration {
  return {
    id,
    async up(db) {
      await sql`create table ${sql.table(table)} (
        id serial primary key,
        user_id integer not null references users(id) on delete cascade,
        combination_id integer not null,
        config jsonb not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (user_id, combination_id)
      )`.execute(db);
    },
  };
}

/** Reads and writes one plugin's config table; every query is scoped to the owner. */
export class ConfigStore {
  constructor(
    private readonly db: Db,
    private readonly table: string,
  ) {}

  /** The owner's config of a combination, or undefined. */
  async forCombination(userId: number, combinationId: number): Promise<ConfigRow | undefined> {
    const { rows } =
      await sql<ConfigRow>`select id, user_id, combination_id, config from ${sql.table(this.table)} where user_id = ${userId} and combination_id = ${combinationId}`.execute(
        this.db,
      );
    return rows[0];
  }

  /** The owner's config by id; another owner's id gives undefined. */
  async byId(userId: number, id: number): Promise<ConfigRow | undefined> {
    const { rows } =
      await sql<ConfigRow>`select id, user_id, combination_id, config from ${sql.table(this.table)} where id = ${id} and user_id = ${userId}`.execute(this.db);
    return rows[0];
  }

  /** Creates the owner's config of a combination; undefined when one exists already. */
  async create(userId: number, combinationId: number, config: Record<string, unknown>): Promise<ConfigRow | undefined> {
    const { rows } = await sql<ConfigRow>`insert into ${sql.table(this.table)} (user_id, combination_id, config)
      values (${userId}, ${combinationId}, ${JSON.stringify(config)}::jsonb)
      on conflict (user_id, combination_id) do nothing
      returning id, user_id, combination_id, config`.execute(this.db);
    return rows[0];
  }

  /** Creates the owner's config of a combination, or replaces the one saved (what the page's form does with POST or PUT). */
  async save(userId: number, combinationId: number, config: Record<string, unknown>): Promise<ConfigRow> {
    const { rows } = await sql<ConfigRow>`insert into ${sql.table(this.table)} (user_id, combination_id, config)
      values (${userId}, ${combinationId}, ${JSON.stringify(config)}::jsonb)
      on conflict (user_id, combination_id) do update set config = excluded.config, updated_at = now()
      returning id, user_id, combination_id, config`.execute(this.db);
    return rows[0];
  }

  /** Replaces the owner's config; undefined when the id is not the owner's. */
  async update(userId: number, id: number, config: Record<string, unknown>): Promise<ConfigRow | undefined> {
    const { rows } = await sql<ConfigRow>`update ${sql.table(this.table)} set config = ${JSON.stringify(config)}::jsonb, updated_at = now()
      where id = ${id} and user_id = ${userId}
      returning id, user_id, combination_id, config`.execute(this.db);
    return rows[0];
  }
}

export interface ConfigRoutesOptions {
  /** '/api/platform/invoiceReconciliationConfig' */
  path: string;
  store: ConfigStore;
  /** The config's JSON Schema (the rjsf form's). */
  configSchema: object;
  /** The body schema of POST and PUT. */
  requestSchema: object;
  /** Combination ids this config belongs to (e.g. [10]). */
  combinations: readonly number[];
}

function reply(row: ConfigRow): ConfigReply {
  return { status: 'success', id: row.id, combination_id: row.combination_id, config_json: toPythonLiteral(row.config) };
}

/**
 * Registers GET (the caller's config of `?combination_id=`, id null when none is saved yet),
 * GET /{id}/, POST (create: 409 when one exists) and PUT /{id}/ (update), all for signed-in users.
 */
export function registerConfigRoutes(app: FastifyInstance, opts: ConfigRoutesOptions): void {
  const { path, store } = opts;
  const checkCombination = (id: number) => {
    if (!opts.combinations.includes(id)) throw badRequest(`This config belongs to combination ${opts.combinations.join(' or ')}, not ${id}.`);
  };
  const getMine = async (request: { query: unknown }) => {
    const user = userOf(request as never);
    const raw = (request.query as { combination_id?: string }).combination_id;
    const combinationId = raw === undefined ? opts.combinations[0] : Number(raw);
    if (!Number.isInteger(combinationId)) throw badRequest('The combination id must be a number.');
    checkCombination(combinationId);
    const row = await store.forCombination(user.id, combinationId);
    return row ? reply(row) : ({ status: 'success', id: null, combination_id: combinationId, config_json: null } satisfies ConfigReply);
  };
  app.get(path, { auth: 'user' }, getMine);
  app.get(`${path}/`, { auth: 'user' }, getMine);

  for (const url of [`${path}/:id/`, `${path}/:id`]) {
    app.get<{ Params: { id: string } }>(url, { auth: 'user' }, async (request) => {
      const row = await store.byId(userOf(request).id, parseId(request.params.id, 'The config id'));
      if (!row) throw notFound('Config not found.');
      return reply(row);
    });
  }

  const create = async (request: { body: unknown }, res: { code(n: number): unknown }) => {
    const user = userOf(request as never);
    const body = request.body as { combination_id: number; config_json: string };
    checkCombination(body.combination_id);
    const config = readConfigJson(body.config_json, opts.configSchema);
    const row = await store.create(user.id, body.combination_id, config);
    if (!row) {
      const existing = await store.forCombination(user.id, body.combination_id);
      throw new HttpError(
        409,
        `A config for combination ${body.combination_id} is saved already (id ${existing?.id}); update it with PUT ${path}/${existing?.id}/.`,
      );
    }
    res.code(201);
    return reply(row);
  };
  app.post(path, { auth: 'user', schema: { body: opts.requestSchema } }, create);
  app.post(`${path}/`, { auth: 'user', schema: { body: opts.requestSchema } }, create);

  for (const url of [`${path}/:id/`, `${path}/:id`])
    app.put<{ Params: { id: string }; Body: { combination_id: number; config_json: string } }>(
      url,
      { auth: 'user', schema: { body: opts.requestSchema } },
      async (request) => {
        const user = userOf(request);
        const id = parseId(request.params.id, 'The config id');
        const current = await store.byId(user.id, id);
        if (!current) throw notFound('Config not found.');
        if (current.combination_id !== request.body.combination_id)
          throw badRequest(`Config ${id} belongs to combination ${current.combination_id}, not ${request.body.combination_id}.`);
        const config = readConfigJson(request.body.config_json, opts.configSchema);
        const row = await store.update(user.id, id, config);
        if (!row) throw notFound('Config not found.');
        return reply(row);
      },
    );
}
