import 'reflect-metadata';
import { loadConfig } from './config';
import { buildServer } from './app';
import { discoverServerPlugins } from './plugin-loader';
import { configOrExit, runMain, stopOnSignals } from './ops/process';

async function main(): Promise<void> {
  const config = configOrExit(() => loadConfig());
  const plugins = await discoverServerPlugins(config.pluginsDir);
  const server = await buildServer({ config, plugins });
  const address = await server.app.listen({ port: config.port, host: config.host });
  server.app.log.info(
    `Serving ${config.clientDir ? 'the app and ' : ''}the API at ${address} (database: ${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite in ' + config.dataDir}, queue: ${config.redisUrl ? 'BullMQ on Redis' : 'in-process, durable'}${config.runJobs ? '' : ', jobs left to workers (RUN_JOBS=false)'}, plugins: ${plugins.map((p) => p.id).join(', ') || 'none'})`,
  );
  if (!config.clientDir) server.app.log.warn('No built client found: run `npm run build` to serve the app');
  stopOnSignals(server.app.log, 'shutting down', () => server.close());
}

runMain(main);
