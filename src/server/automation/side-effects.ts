import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { MailMessage, Mailer } from '../mail/mailer';
import type { ActionContext, OutgoingMail } from './kinds';
import './schema';

/** The done-once ledger of side effects (automation_sent_keys). */
export function ledgerOf(db: Db): ActionContext['ledger'] {
  return {
    async has(key) {
      return !!(await db.selectFrom('automation_sent_keys').select('key').where('key', '=', key).executeTakeFirst());
    },
    async record(key, kind) {
      await db
        .insertInto('automation_sent_keys')
        .values({ key, kind })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
  };
}

/** The records a recipe keeps (automation_records); saving the same key twice keeps one row. */
export function recordsOf(db: Db, owner: { managedUserId: number; recipeId: number; jobId: string }): ActionContext['records'] {
  return {
    async save(key, data) {
      const { rows } = await sql<{ id: number }>`
        insert into automation_records (managed_user_id, recipe_id, job_id, idempotency_key, data)
        values (${owner.managedUserId}, ${owner.recipeId}, ${owner.jobId}, ${key}, cast(${JSON.stringify(data ?? null)}::text as jsonb))
        on conflict (idempotency_key) do nothing
        returning id`.execute(db);
      if (rows[0]) return { id: rows[0].id, created: true };
      const existing = await db.selectFrom('automation_records').select('id').where('idempotency_key', '=', key).executeTakeFirstOrThrow();
      return { id: existing.id, created: false };
    },
  };
}

/**
 * Sends through the mail service with the message's Message-ID. MailMessage carries the id as
 * an extra field: the SMTP and outbox mailers pass it to nodemailer once they read `messageId`.
 */
export function mailOf(mailer: Mailer): ActionContext['mail'] {
  return {
    async send(message: OutgoingMail) {
      const withId: MailMessage & { messageId: string } = { ...message };
      await mailer.send(withId);
    },
  };
}
