import { sql } from 'kysely';
import { migrate } from '../../../src/server/db/migrate';
import { automationMigrations } from '../../../src/server/automation/migrations';
import { catalogueMigrations } from '../../../src/server/catalogue/migrations';
import { createUser, startTestServer, type TestServer } from '../../support/server';
import { testPlugin } from './support';

jest.setTimeout(60_000);

const columnsOf = async (server: TestServer) =>
  (
    await sql<{
      column_name: string;
    }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'user_recipes' order by column_name`.execute(
      server.db,
    )
  ).rows.map((r) => r.column_name);

describe('user_recipes belongs to the automation module', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [testPlugin] });
  });
  afterAll(() => server.close());

  it('is created by automation/0000_user_recipes, before the jobs that reference it; the catalogue migrations no longer create it', async () => {
    const ids = automationMigrations.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual(['automation/0000_user_recipes', 'automation/0001_jobs']);
    expect(catalogueMigrations.map((m) => m.id)).toEqual(['catalogue/0001_catalogue', 'catalogue/0002_setup_flags', 'catalogue/0003_minutes_per_run']);
    const applied = (await sql<{ id: string }>`select id from schema_migrations`.execute(server.db)).rows.map((r) => r.id);
    expect(applied).toEqual(expect.arrayContaining(['catalogue/0001_catalogue', 'automation/0000_user_recipes', 'automation/0001_jobs']));
    expect(await columnsOf(server)).toEqual([
      'combination_id',
      'description',
      'folder_id',
      'id',
      'job_failed_count',
      'job_succeeded_count',
      'location',
      'mail_token',
      'managed_user_id',
      'name',
      'running',
      'sheet_id',
      'status',
      'step_params',
      'updated_at',
      'webhook_token',
      'workato_webhook',
    ]);
  });

  it('does nothing on a database whose user_recipes an older catalogue/0001 made: rows and columns stay', async () => {
    const user = await createUser(server);
    await sql`insert into user_recipes (managed_user_id, combination_id, name, folder_id) values (${user.workatoId}, 424242, 'Older recipe', 'folder-1')`.execute(
      server.db,
    );
    const all = async () => (await sql`select * from user_recipes order by id`.execute(server.db)).rows;
    const before = await all();
    expect(before.length).toBeGreaterThanOrEqual(1);
    // an older database: every migration applied but the new one
    await sql`delete from schema_migrations where id = 'automation/0000_user_recipes'`.execute(server.db);
    const columns = await columnsOf(server);
    expect(await migrate(server.db, automationMigrations)).toEqual(['automation/0000_user_recipes']);
    expect(await columnsOf(server)).toEqual(columns);
    expect(await all()).toEqual(before);
    const older = (
      await sql<{ name: string; folder_id: string; status: string }>`select name, folder_id, status from user_recipes where combination_id = 424242`.execute(
        server.db,
      )
    ).rows;
    expect(older).toEqual([{ name: 'Older recipe', folder_id: 'folder-1', status: 'no started' }]);
  });
});
