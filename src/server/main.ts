import 'reflect-metadata';
import { loadConfig } from './config';
import { buildServer } from './app';
import { discoverServerPlugins } from './plugin-loader';
import { logFormat } from './ops/logging';
import { configOrExit, runMain, shutdownTimes, stopOnSignals } from './ops/process';
import { closeGracefully, sleep } from './ops/shutdown';

async function main(): Promise<void> {
  const config = configOrExit(() => loadConfig());
  const shutdown = configOrExit(() => shutdownTimes());
  configOrExit(() => logFormat());
  const plugins = await discoverServerPlugins(config.pluginsDir);
  const server = await buildServer({ config, plugins });
  const address = await server.app.listen({ port: config.port, host: config.host });
  server.app.log.info(
    `Serving ${config.clientDir ? 'the app and ' : ''}the API at ${address} (database: ${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite in ' + config.dataDir}, queue: ${config.redisUrl ? 'BullMQ on Redis' : 'in-process, durable'}${config.runJobs ? '' : ', jobs left to workers (RUN_JOBS=false)'}, plugins: ${plugins.map((p) => p.id).join(', ') || 'none'})`,
  );
  if (!config.clientDir) server.app.log.warn('No built client found: run `npm run build` to serve the app');
  // SIGTERM: /readyz answers 503 at once; after SHUTDOWN_DRAIN_MS no new connections are taken,
  // the requests in flight are answered, then the running jobs finish and the database and Redis close
  stopOnSignals(
    server.app.log,
    'answering the requests in flight, then stopping',
    async () => {
      server.ops.draining = true;
      if (shutdown.drainMs) await sleep(shutdown.drainMs);
      await closeGracefully(server.app);
      await server.close();
    },
    { timeoutMs: shutdown.timeoutMs },
  );
}

runMain(main);
