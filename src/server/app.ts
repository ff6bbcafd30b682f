import 'reflect-metadata';
import path from 'node:path';
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { ServiceContainer } from '../core/di';
import { ContributionRegistry } from '../core/contributions';
import { systemClock } from '../core/services';
import { EventBus } from '../core/event-bus';
import type { ServerConfig } from './config';
import { openDatabase, type Db } from './db/database';
import { migrate } from './db/migrate';
import { authMigrations } from './auth/migrations';
import { installErrorHandling } from './http/error-handler';
import { AJV_OPTIONS } from './http/schema-validation';
import type { AnyServerPlugin, Needs } from './plugin';
import { createAuthUserCache, installRouteAuth } from './auth/guard';
import { installNulGuard } from './http/nul-guard';
import { loggerOptions } from './http/log-redaction';
import { installBodyLimits, multipartLimits } from './http/body-limits';
import { installWriteRateLimits } from './http/rate-limits';
import { fastifyTrustProxy } from './http/trust-proxy';
import { installSecurityHeaders } from './http/security-headers';
import { secureDirectory, usePrivateUmask } from './db/file-modes';
import { changeFeedOf } from './db/change-feed';
import { RedisChangeBridge } from './catalogue/cache';
import { isAllowedPluginPath, PluginRouteError } from './http/spec-paths';
import { TokenService } from './auth/token-service';
import { Argon2Hasher } from './auth/password';
import { createMailer } from './mail';
import { createQueue } from './queue';
import { coreModules } from './core-modules';
import { stepContributions } from './plugin-loader';
import { createTextGenerator } from './ai/text-generation';
import { DiskFileStore, stopIdleWorkers } from './files';
import { TesseractOcrPool } from './ai/ocr';
import * as T from './tokens';
import { ServerMetrics } from './ops/metrics';
import { installOpsRoutes, type OpsRoutesOptions } from './ops/routes';
import { readinessChecks } from './ops/readiness';
import { pingRedis } from './ops/redis-check';

/** Largest request body a route accepts unless it sets its own `bodyLimit` (file routes do). */
export const DEFAULT_BODY_LIMIT = 100 * 1024;

export interface BuildServerOptions {
  config: ServerConfig;
  /** Plugins found under plugins/ (see discoverServerPlugins). */
  plugins?: AnyServerPlugin[];
  /** An already open database (tests share one); otherwise opened from the config. */
  db?: Db;
  /** Rebind services to fakes: runs after the default bindings, before anything starts. */
  overrides?: (container: ServiceContainer) => void;
  /** Log to stdout (default: only when not under test). */
  logger?: boolean;
}

export interface BuiltServer {
  app: FastifyInstance;
  container: ServiceContainer;
  /** What /readyz asks and what /metrics reports (a worker serves them on WORKER_PORT). */
  ops: OpsRoutesOptions;
  close(): Promise<void>;
}

/**
 * Builds the whole server: container, database and migrations, core modules and plugins,
 * routes, job handlers, and the built client with its SPA fallback.
 */
export async function buildServer(opts: BuildServerOptions): Promise<BuiltServer> {
  const { config } = opts;
  const app = Fastify({
    logger: (opts.logger ?? process.env.NODE_ENV !== 'test') ? loggerOptions(config.logLevel) : false,
    // small by default: a route that carries files sets its own bodyLimit (MAX_UPLOAD_MB)
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    ajv: { customOptions: { ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] } },
  });
  // everything this process writes under DATA_DIR is private (0600 files, 0700 folders)
  usePrivateUmask();
  secureDirectory(config.dataDir);
  // an unreachable Redis stops the start with a message naming REDIS_URL, before anything opens
  if (config.redisUrl) await pingRedis(config.redisUrl, 5000);
  const container = new ServiceContainer();
  const ownsDb = !opts.db;
  const db = opts.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const plugins = opts.plugins ?? [];
  const modules: AnyServerPlugin[] = [...coreModules, ...plugins];

  container.constant(T.ServerConfig, config);
  container.constant(T.Logger, app.log);
  container.constant(T.Clock, systemClock);
  container.provide(T.EventBus, () => new EventBus());
  container.constant(T.Db, db);
  container.constant(T.ServerPlugins, modules);
  container.constant(T.Contributions, new ContributionRegistry(modules));
  container.provide(T.TokenService, () => new TokenService(config.secretKey));
  container.constant(T.PasswordHasher, new Argon2Hasher());
  container.provide(T.Mailer, () => createMailer(config, app.log));
  const metrics = new ServerMetrics(() => container.get(T.JobQueue).depths());
  container.provide(T.JobQueue, () => createQueue(config, db, app.log, metrics.observeJob));
  container.provide(T.TextGenerator, () =>
    createTextGenerator({ llmBaseUrl: config.llmBaseUrl, llmApiKey: config.llmApiKey, llmModel: config.llmModel }, app.log),
  );
  container.provide(T.FileStore, () => new DiskFileStore(path.join(config.dataDir, 'files')));
  let ocr: TesseractOcrPool | undefined;
  container.provide(T.Ocr, () => (ocr = new TesseractOcrPool({ cachePath: path.join(config.dataDir, 'ocr-cache') })));
  for (const m of modules) for (const s of m.provides ?? []) container.provide(s.token, s.factory);
  opts.overrides?.(container);

  /** The typed services a module asked for, resolved once. */
  const depsCache = new Map<AnyServerPlugin, Record<string, unknown>>();
  const depsOf = (m: AnyServerPlugin) => {
    let deps = depsCache.get(m);
    if (!deps) {
      deps = Object.fromEntries(Object.entries((m.needs ?? {}) as Needs).map(([name, t]) => [name, container.get(t)]));
      depsCache.set(m, deps);
    }
    return deps as never;
  };

  // the auth module's tables first (most tables refer to users; their ids carry no module prefix)
  const migrations = [...authMigrations, ...modules.flatMap((m) => m.migrations ?? [])];
  await migrate(db, migrations);

  // engine steps built from each module's resolved services, before anything can run them
  const registry = container.get(T.Contributions);
  for (const m of modules) if (m.steps) registry.addLate(m.id, stepContributions(m, depsOf(m)));

  installErrorHandling(app);
  metrics.instrument(app);
  const ops: OpsRoutesOptions = { checks: readinessChecks({ db, migrations, redisUrl: config.redisUrl }), metrics, metricsToken: config.metricsToken };
  installOpsRoutes(app, ops);
  await installSecurityHeaders(app, { production: config.production, scriptHosts: config.cspScriptHosts, serveSourceMaps: config.serveSourceMaps });
  installNulGuard(app);
  installBodyLimits(app, { maxUploadBytes: config.maxUploadBytes });
  const authUsers = createAuthUserCache(db);
  installRouteAuth(app, () => ({ tokens: container.get(T.TokenService), db, users: authUsers }));
  const feed = changeFeedOf(db);
  const changeBridge =
    feed && config.redisUrl
      ? new RedisChangeBridge(feed, config.redisUrl, (e) => app.log.warn({ err: e }, 'cache invalidation over Redis failed'), config.redisPrefix)
      : undefined;
  await changeBridge?.start();
  // with REDIS_URL the counters live in Redis, so every server process enforces one limit
  const rateLimitRedis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  await app.register(fastifyRateLimit, { global: false, ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: `${config.redisPrefix}:rate-limit:` } : {}) });
  installWriteRateLimits(app, { perUser: config.writeRateLimitPerUser, perAddress: config.writeRateLimitPerAddress });
  await app.register(fastifyMultipart, { limits: multipartLimits(config.maxUploadBytes) });

  // each module's routes in a scope of its own; a plugin's are the spec's paths or its own prefix
  for (const m of modules) {
    if (!m.routes) continue;
    const isPlugin = plugins.includes(m);
    await app.register(async (scope) => {
      if (isPlugin) {
        scope.addHook('onRoute', (route) => {
          if (!isAllowedPluginPath(m.id, route.url)) throw new PluginRouteError(m.id, route.url);
        });
      }
      await m.routes!(scope, depsOf(m));
    });
  }

  const queue = container.get(T.JobQueue);
  for (const m of modules) {
    for (const [name, def] of Object.entries(m.jobs ?? {})) {
      const { handler, concurrency } = typeof def === 'function' ? { handler: def, concurrency: 1 } : def;
      queue.process(name, (data, job) => handler(data, depsOf(m), job), { concurrency });
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

  await app.ready();
  for (const m of modules) await m.onStart?.(depsOf(m));
  // RUN_JOBS=false: this process enqueues jobs (and reports their depth) but workers run them
  if (config.runJobs) await queue.start();

  let closed = false;
  return {
    app,
    container,
    ops,
    async close() {
      if (closed) return;
      closed = true;
      for (const m of [...modules].reverse()) await m.onStop?.(depsOf(m));
      await queue.close();
      await ocr?.close();
      await stopIdleWorkers();
      await container.get(T.Mailer).close?.();
      await app.close();
      await rateLimitRedis?.quit().catch(() => undefined);
      await changeBridge?.close();
      if (ownsDb) await db.destroy();
    },
  };
}
