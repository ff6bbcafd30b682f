import 'reflect-metadata';
import Fastify from 'fastify';
import { ConfigError, loadConfig, type ServerConfig } from './config';
import { buildServer } from './app';
import { discoverServerPlugins } from './plugin-loader';
import { installOpsRoutes } from './ops/routes';
import { loggerOptions } from './http/log-redaction';
import { logFormat } from './ops/logging';
import { configOrExit, runMain, shutdownTimes, stopOnSignals } from './ops/process';
import { closeGracefully } from './ops/shutdown';

/**
 * `npm run worker`: runs jobs only. It shares PostgreSQL and Redis with the web servers (the
 * embedded database cannot be shared between processes), serves no app and no API, and with
 * WORKER_PORT answers /healthz, /readyz and /metrics there (any other path 404).
 */
function workerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const missing = ['DATABASE_URL', 'REDIS_URL'].filter((name) => !env[name]);
  if (missing.length) {
    throw new ConfigError(
      missing.join(' and '),
      `must be set for a worker: it shares the web servers' PostgreSQL database and Redis queue (the embedded database cannot be shared between processes)`,
    );
  }
  // the inbound mail listener belongs to the web servers; a worker always runs jobs
  return { ...loadConfig({ ...env, INBOUND_SMTP_PORT: '0' }), runJobs: true };
}

async function main(): Promise<void> {
  const config = configOrExit(() => workerConfig());
  const shutdown = configOrExit(() => shutdownTimes());
  configOrExit(() => logFormat());
  const plugins = await discoverServerPlugins(config.pluginsDir);
  const server = await buildServer({ config, plugins });
  const log = server.app.log;
  const ops = config.workerPort ? Fastify({ logger: loggerOptions(config.logLevel) }) : undefined;
  if (ops) {
    server.ops.metrics.instrument(ops);
    installOpsRoutes(ops, server.ops);
    await ops.listen({ port: config.workerPort, host: config.host });
  }
  log.info(
    `Worker running jobs (plugins: ${plugins.map((p) => p.id).join(', ') || 'none'})${ops ? `; health, readiness and metrics on port ${config.workerPort}` : ''}`,
  );
  // SIGTERM: takes no new jobs, /readyz answers 503 while the running jobs finish; a job still
  // running after SHUTDOWN_TIMEOUT_MS is left to the queue's stalled check (its lock lapses and
  // another worker takes it up again) as the process exits 1
  stopOnSignals(
    log,
    'taking no new jobs and finishing the running ones, then stopping',
    async () => {
      server.ops.draining = true;
      await server.close();
      if (ops) await closeGracefully(ops);
    },
    { timeoutMs: shutdown.timeoutMs },
  );
}

runMain(main);
