import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/server/db/database';
import { migrate, type Migration } from '../../src/server/db/migrate';
import { authMigrations as coreMigrations } from '../../src/server/auth/migrations';
import { freshPgSchema, type PgSchema } from './support/services';

/** Two migration runs started together on one fresh schema, as two processes starting at once would. */
describe('migrations on PostgreSQL started by several processes at once', () => {
  let schema: PgSchema;
  const dbs: Db[] = [];
  beforeEach(async () => {
    schema = await freshPgSchema();
  });
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.destroy()));
    await schema?.drop();
  });

  // each up() leaves one row per run, so a migration applied twice shows as two rows
  const probe: Migration[] = [
    {
      id: 'ops-probe/0001_runs',
      up: async (db) => void (await sql`create table migration_runs (id text not null, at timestamptz not null default clock_timestamp())`.execute(db)),
    },
    {
      id: 'ops-probe/0002_slow',
      up: async (db) => {
        await sql`insert into migration_runs (id) values ('0002')`.execute(db);
        await sql`select pg_sleep(0.3)`.execute(db);
      },
    },
    { id: 'ops-probe/0003_after', up: async (db) => void (await sql`insert into migration_runs (id) values ('0003')`.execute(db)) },
  ];

  it('applies every migration exactly once; the second run waits and finds nothing to do', async () => {
    const all = [...coreMigrations, ...probe];
    for (let i = 0; i < 3; i += 1) dbs.push(await openDatabase({ databaseUrl: schema.url }));
    const runs = await Promise.all(dbs.map((db) => migrate(db, all)));

    // one run applied them all, in order; the others found them done
    const ids = all.map((m) => m.id);
    expect(runs.map((r) => r.length).sort((a, b) => b - a)).toEqual([ids.length, 0, 0]);
    expect(runs.find((r) => r.length > 0)).toEqual(ids);
    expect(await schema.query('select id from schema_migrations order by id')).toEqual([...ids].sort().map((id) => ({ id })));
    expect(await schema.query('select id from migration_runs order by at')).toEqual([{ id: '0002' }, { id: '0003' }]);
  });

  it('keeps the schema_migrations table to one creation when the schema is empty', async () => {
    for (let i = 0; i < 4; i += 1) dbs.push(await openDatabase({ databaseUrl: schema.url }));
    const runs = await Promise.all(dbs.map((db) => migrate(db, probe)));
    expect(runs.flat()).toEqual(probe.map((m) => m.id));
    expect(await schema.query('select count(*)::int as n from migration_runs')).toEqual([{ n: 2 }]);
  });
});
