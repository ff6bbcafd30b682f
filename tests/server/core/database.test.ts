import { sql } from 'kysely';
import { openDatabase } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { authMigrations as coreMigrations } from '../../../src/server/auth/migrations';

describe('embedded database and migrations', () => {
  it('applies migrations once, in order, and records them', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await migrate(db, coreMigrations)).toEqual(coreMigrations.map((m) => m.id));
      expect(coreMigrations[0].id).toBe('0001_users');
      expect(await migrate(db, coreMigrations)).toEqual([]);
      const extra = { id: '9999_extra', up: async (d: typeof db) => void (await sql`create table extra (x int)`.execute(d)) };
      expect(await migrate(db, [...coreMigrations, extra])).toEqual(['9999_extra']);
    } finally {
      await db.destroy();
    }
  });

  it('rolls a failing migration back whole and rejects duplicate ids', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const broken = {
        id: '9999_broken',
        up: async (d: typeof db) => {
          await sql`create table half (x int)`.execute(d);
          await sql`select * from no_such_table`.execute(d);
        },
      };
      await expect(migrate(db, [...coreMigrations, broken])).rejects.toThrow();
      const half = await sql<{
        n: number;
      }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = 'half'`.execute(db);
      expect(half.rows[0].n).toBe(0);
      await expect(migrate(db, [coreMigrations[0], coreMigrations[0]])).rejects.toThrow('defined twice');
    } finally {
      await db.destroy();
    }
  });

  it('serialises concurrent transactions on the single embedded connection', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await sql`create table counter (n int)`.execute(db);
      await sql`insert into counter values (0)`.execute(db);
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction().execute(async (trx) => {
            const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
            await sql`update counter set n = ${rows[0].n + 1}`.execute(trx);
          }),
        ),
      );
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(db);
      expect(rows[0].n).toBe(20);
      const upd = await db
        .updateTable('users' as never)
        .set({} as never)
        .execute()
        .catch(() => null);
      expect(upd).toBeNull();
    } finally {
      await db.destroy();
    }
  });

  it('reports affected rows for updates and deletes', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await sql`create table t (x int)`.execute(db);
      await sql`insert into t values (1), (2), (3)`.execute(db);
      const r = await sql`update t set x = x + 1 where x > 1`.execute(db);
      expect(Number(r.numAffectedRows)).toBe(2);
    } finally {
      await db.destroy();
    }
  });
});
