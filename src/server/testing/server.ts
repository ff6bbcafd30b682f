import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Container } from 'inversify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildServer, type BuiltServer } from '../app';
import { loadConfig, type ServerConfig } from '../config';
import { openDatabase, type Db } from '../db/database';
import type { ServerPlugin } from '../plugin';
import { pgliteTemplate } from './pglite-template';
import type { MailMessage, Mailer } from '../mail/mailer';
import { Argon2Hasher, type PasswordHasher } from '../auth/password';
import type { TokenService } from '../auth/token-service';
import * as T from '../tokens';
import type { Database } from '../db/schema';
import type { ServiceContainer, Token } from '../../core/di';
import type { AnyFake } from '../../core/testing';

/**
 * The test server, a real one: the whole core on an in-memory PGlite (or a fresh schema of
 * TEST_DATABASE_URL), the given plugins, a mailer that keeps every message, cheap password
 * hashing. Part of the server's testing face (src/server/testing).
 */

/** Keeps every message instead of sending it. */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  private waiters: Array<() => void> = [];
  async send(m: MailMessage): Promise<void> {
    this.sent.push(m);
    this.waiters.splice(0).forEach((w) => w());
  }
  /** Resolves with the first message to `to` (waits for the mail job if needed). */
  async waitFor(to: string, timeoutMs = 10_000): Promise<MailMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = [...this.sent].reverse().find((x) => x.to.toLowerCase() === to.toLowerCase());
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
}

export interface TestServer extends BuiltServer {
  config: ServerConfig;
  db: Db;
  mailer: CapturingMailer;
  /** the address when started with listen: true */
  url: string;
  /** app.inject, parsed: { status, body, headers } */
  call<T = any>(
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Record<string, unknown> }>;
}

export interface TestServerOptions {
  plugins?: ServerPlugin[];
  /**
   * Services replaced before anything resolves, each checked against its token's type:
   * `fakes: [fake(T.TextGenerator, { generate: async () => ({ text: 'Hi', source: 'template' }) })]`
   * (a partial fake: a member it lacks fails naming it) or `replace(T.Mailer, myMailer)`.
   */
  fakes?: readonly AnyFake[];
  /** Rebinds by hand on the server's container, after `fakes` (prefer `fakes`: typed). */
  overrides?: (c: ServiceContainer & Container) => void;
  env?: Record<string, string>;
  /** listen on a random loopback port (for browser and real HTTP tests) */
  listen?: boolean;
  /** a database that outlives this server (see openTestDatabase), e.g. to restart on it */
  db?: Db;
}

export interface TestDatabase {
  db: Db;
  /** another connection pool on the same database, a second "process" (PostgreSQL only) */
  connect(): Db;
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database for tests: a fresh schema in TEST_DATABASE_URL (the integration run sets
 * it), otherwise an in-memory PGlite. An unreachable PostgreSQL fails the test, naming the URL.
 */
export async function openTestDatabase(url = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  if (!url) {
    const db = await openDatabase({ dataDir: 'memory://', template: await pgliteTemplate() });
    return {
      db,
      connect: () => {
        throw new Error('PGlite is a single in-process connection: use the same db');
      },
      drop: () => db.destroy(),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (e) {
    throw new Error(`PostgreSQL at ${url} is unreachable (TEST_DATABASE_URL): ${(e as Error).message}`);
  }
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const pools: Db[] = [];
  const connect = () => {
    const pool = new pg.Pool({ connectionString: url, max: 5, options: `-c search_path=${schema}` });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.push(db);
    return db;
  };
  const db = connect();
  return {
    db,
    connect,
    drop: async () => {
      await sql.raw(`drop schema ${schema} cascade`).execute(db);
      await Promise.all(pools.map((p) => p.destroy()));
    },
  };
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flowmatic-test-'));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      PUBLIC_URL: 'http://localhost:3000',
      AUTH_RATE_LIMIT: '1000',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      ...opts.env,
    },
    process.cwd(),
  );
  const { db, drop } = opts.db ? { db: opts.db, drop: async () => undefined } : await openTestDatabase();
  const mailer = new CapturingMailer();
  let server: BuiltServer;
  try {
    server = await buildServer({
      config,
      db,
      plugins: opts.plugins ?? [],
      logger: false,
      overrides: (c) => {
        c.rebind(T.Mailer).toConstantValue(mailer);
        // cheaper hashing keeps the suite fast; production uses the default argon2id cost
        c.rebind(T.PasswordHasher).toConstantValue(new Argon2Hasher({ memoryCost: 1024, timeCost: 1 }));
        for (const f of opts.fakes ?? []) c.replace(f.token as Token<unknown>, f.value);
        opts.overrides?.(c);
      },
    });
  } catch (e) {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  let url = '';
  if (opts.listen) url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...server,
    config,
    db,
    mailer,
    url,
    async call(method, target, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const res = await server.app.inject({ method: method as 'GET', url: target, payload: o.body as object, headers });
      let body: any = res.body;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body, headers: res.headers };
    },
    /** stops the server; a database passed in as `db` stays open */
    async close() {
      await server.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  id: number;
  workatoId: number;
  email: string;
  password: string;
  access: string;
  refresh: string;
}

let seq = 0;

/** Inserts a verified (by default) user with a managed user row, and signs its tokens. */
export async function createUser(
  server: TestServer,
  fields: Partial<{ name: string; email: string; password: string; verified: boolean; role: string; company: string }> = {},
): Promise<TestUser> {
  seq += 1;
  const email = fields.email ?? `user${seq}-${randomBytes(3).toString('hex')}@example.com`;
  const password = fields.password ?? 'correct horse battery staple';
  const hasher = server.container.get<PasswordHasher>(T.PasswordHasher);
  const user = await server.db
    .insertInto('users')
    .values({
      name: fields.name ?? `User ${seq}`,
      email,
      password_hash: await hasher.hash(password),
      role: fields.role ?? 'bm',
      company_name: fields.company ?? 'Acme Ltd',
      is_verified: fields.verified ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const managed = await server.db
    .insertInto('managed_users')
    .values({ user_id: user.id, external_id: `test-${user.id}-${randomBytes(4).toString('hex')}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tokens = server.container.get<TokenService>(T.TokenService);
  const { access, refresh } = await tokens.sessionPair(user.id, 0);
  return { id: user.id, workatoId: managed.id, email, password, access, refresh };
}

/** A test server with two users on it (for what one user may, or may not, see of another's). */
export async function startWithTwoUsers(opts: TestServerOptions = {}): Promise<{ server: TestServer; users: [TestUser, TestUser] }> {
  const server = await startTestServer(opts);
  try {
    return { server, users: [await createUser(server), await createUser(server)] };
  } catch (e) {
    await server.close();
    throw e;
  }
}

/** Logs in through the API; throws with the reply when it fails. */
export async function login(server: TestServer, email: string, password: string): Promise<{ access: string; refresh: string }> {
  const res = await server.call('POST', '/api/platform/api-jwt-token/', { body: { username: email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The first link to the app (config.publicUrl) in a mail's text, parsed. */
export function linkIn(server: TestServer, mail: MailMessage): URL {
  const escaped = server.config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}/\\S+`).exec(mail.text);
  if (!m) throw new Error(`no link in mail "${mail.subject}"`);
  return new URL(m[0]);
}

/** Registers through the API (as the sign-up form does); returns the id and the verification link. */
export async function registerUser(
  server: TestServer,
  fields: Partial<{ name: string; email: string; password: string; role: string; company: string }> = {},
): Promise<{ id: number; email: string; password: string; verifyLink: URL }> {
  seq += 1;
  const email = fields.email ?? `signup${seq}-${randomBytes(3).toString('hex')}@example.com`;
  const password = fields.password ?? 'a long enough password';
  const res = await server.call('POST', '/api/platform/register', {
    body: {
      name: fields.name ?? `Signup ${seq}`,
      username: email,
      email,
      role: fields.role ?? 'ds',
      company: fields.company ?? 'Unknown',
      password,
      accept_terms: true,
    },
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const mail = await server.mailer.waitFor(email);
  return { id: res.body.id, email, password, verifyLink: linkIn(server, mail) };
}

/** Registers, follows the verification link through emailVerify, and logs in. */
export async function registerAndVerify(
  server: TestServer,
  fields: Parameters<typeof registerUser>[1] = {},
): Promise<{ id: number; email: string; password: string; access: string; refresh: string }> {
  const user = await registerUser(server, fields);
  const res = await server.call('POST', '/api/platform/emailVerify', {
    body: { email: user.verifyLink.searchParams.get('email') },
    headers: { authorization: `Token ${user.verifyLink.searchParams.get('token')}` },
  });
  if (res.status !== 200) throw new Error(`emailVerify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...user, ...(await login(server, user.email, user.password)) };
}
