import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { buildServer } from './app';
import { discoverServerPlugins } from './plugin-loader';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const plugins = await discoverServerPlugins(config.pluginsDir);
  const server = await buildServer({ config, plugins });
  const address = await server.app.listen({ port: config.port, host: config.host });
  server.app.log.info(
    `Serving ${config.clientDir ? 'the app and ' : ''}the API at ${address} (database: ${config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite in ' + config.dataDir}, queue: ${config.redisUrl ? 'BullMQ on Redis' : 'in-process, durable'}, plugins: ${plugins.map((p) => p.id).join(', ') || 'none'})`,
  );
  if (!config.clientDir) server.app.log.warn('No built client found: run `npm run build` to serve the app');
  const stop = async (signal: string) => {
    server.app.log.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
