import 'reflect-metadata';
import path from 'node:path';
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { Container } from 'inversify';
import type { ServerConfig } from './config';
import { openDatabase, type Db } from './db/database';
import { migrate } from './db/migrate';
import { coreMigrations } from './db/core-migrations';
import { installErrorHandling } from './http/error-handler';
import type { ServerPlugin, ServerPluginContext } from './plugin';
import { TokenService } from './auth/token-service';
import { Argon2Hasher } from './auth/password';
import { createMailer } from './mail';
import { createQueue } from './queue';
import type { JobQueue } from './queue/job-queue';
import type { Mailer } from './mail/mailer';
import { coreModules } from './core-modules';
import * as T from './tokens';

export interface BuildServerOptions {
  config: ServerConfig;
  /** Plugins found under plugins/ (see discoverServerPlugins). */
  plugins?: ServerPlugin[];
  /** An already open database (tests share one); otherwise opened from the config. */
  db?: Db;
  /** Rebind services to fakes: runs after the default bindings, before anything starts. */
  overrides?: (container: Container) => void;
  /** Log to stdout (default: only when not under test). */
  logger?: boolean;
}

export interface BuiltServer {
  app: FastifyInstance;
  container: Container;
  close(): Promise<void>;
}

/**
 * Builds the whole server: container, database and migrations, core modules and plugins,
 * routes, job handlers, and the built client with its SPA fallback.
 */
export async function buildServer(opts: BuildServerOptions): Promise<BuiltServer> {
  const { config } = opts;
  const app = Fastify({
    logger: (opts.logger ?? process.env.NODE_ENV !== 'test') ? { level: config.logLevel } : false,
    bodyLimit: Math.max(config.maxUploadBytes * 2, 1024 * 1024),
    trustProxy: process.env.TRUST_PROXY === 'true',
    // One validator for every route's schema. The schemas in schemas/ carry an `errorMessage` for
    // their forms (verbose keeps parentSchema for the error handler); unknown fields are refused,
    // not silently dropped, and no type is coerced, as the client's own form validator behaves.
    ajv: {
      customOptions: { keywords: ['errorMessage'], verbose: true, removeAdditional: false, coerceTypes: false, useDefaults: true, strictTypes: false },
    },
  });
  const container = new Container();
  const ownsDb = !opts.db;
  const db = opts.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const modules: ServerPlugin[] = [...coreModules, ...(opts.plugins ?? [])];

  container.bind(T.ServerConfig).toConstantValue(config);
  container.bind(T.Logger).toConstantValue(app.log);
  container.bind(T.Clock).toConstantValue({ now: () => Date.now() });
  container.bind(T.Db).toConstantValue(db);
  container.bind(T.ServerPlugins).toConstantValue(modules);
  container.bind(T.TokenService).toDynamicValue(() => new TokenService(config.secretKey)).inSingletonScope();
  container.bind(T.PasswordHasher).toConstantValue(new Argon2Hasher());
  container.bind(T.Mailer).toDynamicValue(() => createMailer(config, app.log)).inSingletonScope();
  container.bind(T.JobQueue).toDynamicValue(() => createQueue(config, db, app.log)).inSingletonScope();
  for (const m of modules) await m.bindings?.(container);
  opts.overrides?.(container);

  await migrate(db, [...coreMigrations, ...modules.flatMap((m) => m.migrations ?? [])]);

  installErrorHandling(app);
  // with REDIS_URL the counters live in Redis, so every server process enforces one limit
  const rateLimitRedis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  await app.register(fastifyRateLimit, { global: false, ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: 'flowmatic-rate-limit:' } : {}) });
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 2 } });

  const ctx: ServerPluginContext = { container };
  for (const m of modules) await m.routes?.(app, ctx);

  const queue = container.get<JobQueue>(T.JobQueue);
  for (const m of modules) {
    for (const [name, def] of Object.entries(m.jobs ?? {})) {
      const { handler, concurrency } = typeof def === 'function' ? { handler: def, concurrency: 1 } : def;
      queue.process(name, (data) => handler(data, ctx), { concurrency });
    }
  }

  if (config.clientDir && existsSync(path.join(config.clientDir, 'index.html'))) {
    // files are looked up per request (wildcard), so a rebuilt client is served without a restart;
    // hashed assets are cached for good, index.html never
    await app.register(fastifyStatic, {
      root: config.clientDir,
      wildcard: true,
      index: 'index.html',
      cacheControl: false,
      setHeaders: (reply: unknown, file: string) => {
        const immutable = /[\\/]assets[\\/]/.test(file);
        (reply as { header(k: string, v: string): void }).header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    // the browser app answers every page path; a missing file (e.g. a chunk of an older build) is a 404
    const looksLikeFile = url.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(url);
    if ((request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && !looksLikeFile && config.clientDir) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ status: 'error', message: 'Not found.' });
  });

  for (const m of modules) await m.onStart?.(ctx);
  await queue.start();

  let closed = false;
  return {
    app,
    container,
    async close() {
      if (closed) return;
      closed = true;
      for (const m of [...modules].reverse()) await m.onStop?.(ctx);
      await queue.close();
      await container.get<Mailer>(T.Mailer).close?.();
      await app.close();
      await rateLimitRedis?.quit().catch(() => undefined);
      if (ownsDb) await db.destroy();
    },
  };
}
