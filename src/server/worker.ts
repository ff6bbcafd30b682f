import 'reflect-metadata';
import Fastify from 'fastify';
import { ConfigError, loadConfig, type ServerConfig } from './config';
import { buildServer } from './app';
import { discoverServerPlugins } from './plugin-loader';
import { installOpsRoutes } from './ops/routes';
import { loggerOptions } from './http/log-redaction';

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
  let config: ServerConfig;
  try {
    config = workerConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const plugins = await discoverServerPlugins(config.pluginsDir);
  const server = await buildServer({ config, plugins });
  const log = server.app.log;
  const ops = config.workerPort ? Fastify({ logger: loggerOptions(config.logLevel) }) : undefined;
  if (ops) {
    server.ops.metrics.instrument(ops);
    installOpsRoutes(ops, server.ops);
    await ops.listen({ port: config.workerPort, host: config.host });
  }
  log.info(`Worker running jobs (plugins: ${plugins.map((p) => p.id).join(', ') || 'none'})${ops ? `; health, readiness and metrics on port ${config.workerPort}` : ''}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing the running jobs, then stopping`);
    await ops?.close();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
