import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverServerPlugins } from '../../../src/server/plugin-loader';
import { startTestServer } from '../../support/server';
import { defineServerPlugin } from '../../../src/server/plugin';
import type { JobQueue } from '../../../src/server/queue/job-queue';
import * as T from '../../../src/server/tokens';

const repo = path.resolve(__dirname, '../../..');

function writePlugin(dir: string, folder: string, id: string, body = '') {
  mkdirSync(path.join(dir, folder), { recursive: true });
  const rel = path.relative(path.join(dir, folder), path.join(repo, 'src/server/plugin')).replace(/\\/g, '/');
  writeFileSync(
    path.join(dir, folder, 'server.ts'),
    `import { defineServerPlugin } from '${rel}';
import { sql } from 'kysely';
export default defineServerPlugin({
  id: '${id}',
  migrations: [{ id: '${id}/0001_greetings', async up(db) { await sql\`create table greetings_${id.replace(/-/g, '_')} (word text)\`.execute(db); } }],
  routes(app) { app.get('/api/plugins/${id}/hello', async () => ({ hello: 'world' })); },
  ${body}
});
`,
  );
}

describe('server plugins are discovered from plugins/<name>/server.ts', () => {
  const dir = path.join(repo, '.tmp', `server-plugins-${process.pid}-${Date.now()}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a dropped-in folder: its migration runs and its route answers, with no other edit', async () => {
    writePlugin(dir, 'greeter', 'greeter');
    const plugins = await discoverServerPlugins(dir);
    expect(plugins.map((p) => p.id)).toEqual(['greeter']);
    const server = await startTestServer({ plugins });
    try {
      const res = await server.call('GET', '/api/plugins/greeter/hello');
      expect(res).toMatchObject({ status: 200, body: { hello: 'world' } });
      const applied = await server.db.selectFrom('schema_migrations').select('id').execute();
      expect(applied.map((r) => r.id)).toContain('greeter/0001_greetings');
    } finally {
      await server.close();
    }
  });

  it('fails when two folders declare the same plugin id, naming both', async () => {
    writePlugin(dir, 'greeter-copy', 'greeter');
    await expect(discoverServerPlugins(dir)).rejects.toThrow('Server plugin "greeter" is contributed by both plugin "greeter" and plugin "greeter-copy"');
  });

  it("runs a plugin's jobs with the concurrency it asks for", async () => {
    let running = 0;
    let most = 0;
    const server = await startTestServer({
      plugins: [
        defineServerPlugin({
          id: 'busy',
          jobs: {
            'busy.work': {
              concurrency: 3,
              handler: async () => {
                most = Math.max(most, ++running);
                await new Promise((r) => setTimeout(r, 150));
                running -= 1;
              },
            },
          },
        }),
      ],
    });
    try {
      const queue = server.container.get<JobQueue>(T.JobQueue);
      const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => queue.add('busy.work', { i })));
      for (const id of ids) {
        for (let t = 0; t < 200 && (await queue.get(id))?.status !== 'completed'; t++) await new Promise((r) => setTimeout(r, 25));
      }
      expect(most).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('ignores a missing plugins folder', async () => {
    await expect(discoverServerPlugins(path.join(dir, 'nope'))).resolves.toEqual([]);
  });
});
