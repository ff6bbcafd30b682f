import { sql } from 'kysely';
import { migrate } from '../../../src/server/db/migrate';
import { catalogueMigrations } from '../../../src/server/catalogue/migrations';
import { connectionMigrations } from '../../../src/server/connections/migrations';
import { votesMigrations } from '../../../src/server/votes/migrations';
import { marketingMigrations } from '../../../src/server/marketing/migrations';
import { createUser, startTestServer, type TestServer } from '../../support/server';

jest.setTimeout(60_000);

/** Each table has one owning module (issue 22): the catalogue creates only its own tables. */
const columnsOf = async (server: TestServer, table: string) =>
  (
    await sql<{
      column_name: string;
    }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by column_name`.execute(
      server.db,
    )
  ).rows.map((r) => r.column_name);

const OWNED = [
  { table: 'connections', migration: 'connections/0000_connections', migrations: connectionMigrations },
  { table: 'votes', migration: 'votes/0001_votes', migrations: votesMigrations },
  { table: 'marketing_events', migration: 'marketing/0001_events', migrations: marketingMigrations },
];

describe('tables created by the module that owns them', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('creates connections, votes and marketing_events in their own modules, with the columns they always had', async () => {
    const applied = (await sql<{ id: string }>`select id from schema_migrations`.execute(server.db)).rows.map((r) => r.id);
    expect(applied).toEqual(expect.arrayContaining(OWNED.map((o) => o.migration)));
    expect(connectionMigrations[0].id).toBe('connections/0000_connections');
    expect(catalogueMigrations.map((m) => m.id)).toEqual(['catalogue/0001_catalogue', 'catalogue/0002_setup_flags', 'catalogue/0003_minutes_per_run']);
    // the catalogue's first migration names only its own tables
    const source = catalogueMigrations[0].up.toString();
    expect(source.match(/create table (\w+)/g)).toEqual(['create table solutions', 'create table workflows', 'create table combinations']);
    expect(await columnsOf(server, 'connections')).toEqual(['authorization_status', 'created_at', 'id', 'managed_user_id', 'name', 'provider']);
    expect(await columnsOf(server, 'votes')).toEqual(['combination_id', 'created_at', 'user_id']);
    expect(await columnsOf(server, 'marketing_events')).toEqual(['created_at', 'id', 'topic', 'user_id']);
  });

  it('does nothing on a database whose tables an older catalogue/0001 made: rows and columns stay', async () => {
    const user = await createUser(server);
    await sql`insert into marketing_events (user_id, topic) values (${user.id}, 'Older topic')`.execute(server.db);
    await sql`insert into connections (managed_user_id, provider, name) values (${user.workatoId}, 'google_drive', 'Older connection')`.execute(server.db);
    const rows = async (table: string) => (await sql`select * from ${sql.table(table)} order by 1, 2`.execute(server.db)).rows;
    for (const { table, migration, migrations } of OWNED) {
      const before = { rows: await rows(table), columns: await columnsOf(server, table) };
      await sql`delete from schema_migrations where id = ${migration}`.execute(server.db);
      expect(await migrate(server.db, migrations)).toEqual([migration]);
      expect({ rows: await rows(table), columns: await columnsOf(server, table) }).toEqual(before);
    }
    const older = await sql<{ topic: string }>`select topic from marketing_events where user_id = ${user.id}`.execute(server.db);
    expect(older.rows).toEqual([{ topic: 'Older topic' }]);
  });
});
