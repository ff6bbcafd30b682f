import { createUser, openTestDatabase, startTestServer } from '../../support/server';
import * as T from '../../../src/server/tokens';
import { PRUNE_SESSIONS_EVERY_MS, PRUNE_SESSIONS_JOB } from '../../../src/server/auth/sessions';
import type { Db } from '../../../src/server/db/database';

const HOUR = PRUNE_SESSIONS_EVERY_MS;

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pruneJobs = (db: Db) => db.selectFrom('jobs').select(['id', 'status', 'run_at']).where('name', '=', PRUNE_SESSIONS_JOB).execute();

describe('pruning expired session records', () => {
  it('runs at start and then every hour on the job queue, deleting only expired records', async () => {
    const store = await openTestDatabase();
    try {
      const first = await startTestServer({ db: store.db });
      const user = await createUser(first);
      // the start-up run of this hour, and the next hour's run queued by it
      await until('the start-up prune', async () => (await pruneJobs(store.db)).some((j) => j.status === 'completed'));
      const slot = Math.floor(Date.now() / HOUR);
      await until('the next hour queued', async () => (await pruneJobs(store.db)).some((j) => j.id.endsWith(`.${slot + 1}`) && j.status === 'waiting'));

      const now = Date.now();
      const past = new Date(now - 60_000);
      const future = new Date(now + 24 * HOUR);
      await store.db
        .insertInto('refresh_token_uses')
        .values([
          { jti: 'expired-jti', user_id: user.id, session_id: 's-old', used_at: past, expires_at: past },
          { jti: 'live-jti', user_id: user.id, session_id: 's-live', used_at: past, expires_at: future },
        ])
        .execute();
      await store.db
        .insertInto('revoked_sessions')
        .values([
          { session_id: 'expired-session', user_id: user.id, revoked_at: past, reason: 'logout', expires_at: past },
          { session_id: 'live-session', user_id: user.id, revoked_at: past, reason: 'logout', expires_at: future },
        ])
        .execute();
      await first.close();

      // two hours on: a new hour's run is due at start
      const later = await startTestServer({ db: store.db, overrides: (c) => c.rebind(T.Clock).toConstantValue({ now: () => Date.now() + 2 * HOUR }) });
      try {
        const jtis = async () => (await store.db.selectFrom('refresh_token_uses').select('jti').execute()).map((r) => r.jti);
        const sessions = async () => (await store.db.selectFrom('revoked_sessions').select('session_id').execute()).map((r) => r.session_id);
        // the job deletes from the two tables one after the other: wait for both
        await until(
          'the expired refresh-token use and revoked session to go',
          async () => !(await jtis()).includes('expired-jti') && !(await sessions()).includes('expired-session'),
        );
        expect(await jtis()).toEqual(['live-jti']);
        expect(await sessions()).toEqual(['live-session']);
        // and the chain goes on: the following hour is queued, once
        await until('the following hour queued', async () => (await pruneJobs(store.db)).some((j) => j.id.endsWith(`.${slot + 3}`)));
        const waiting = (await pruneJobs(store.db)).filter((j) => j.status === 'waiting');
        expect(waiting.filter((j) => j.id.endsWith(`.${slot + 3}`))).toHaveLength(1);
        for (const j of waiting) expect(new Date(j.run_at).getTime()).toBeGreaterThan(now);
      } finally {
        await later.close();
      }
    } finally {
      await store.drop();
    }
  });
});
