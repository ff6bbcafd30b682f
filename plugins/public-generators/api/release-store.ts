import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountDirectory } from '../../../src/server';

/** A press release Mia wrote, as stored (its images are kept apart, see ReleaseImages). */
export interface MiaRelease {
  id: string;
  email: string;
  company: string;
  product: string;
  url: string;
  title: string;
  paraphrase_1: string;
  paraphrase_2: string;
  logo_source: 'site' | 'generated';
  text_source: 'template' | 'llm';
  created_at: Date;
}

/** The three images of a release, by the name they are served under. */
export const IMAGE_NAMES = ['logo', 'image-1', 'image-2'] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];
export type ReleaseImages = Record<ImageName, Buffer>;

interface MiaTables {
  mia_releases: Omit<MiaRelease, 'created_at'> & { created_at?: Date };
  mia_images: { release_id: string; name: ImageName; png: Buffer | Uint8Array };
  mia_mails: { id?: number; release_id: string; recipient: string; job_id: string | null; sent_at?: Date };
  mia_recipients: { recipient: string; confirmed_at?: Date };
  mia_confirmations: { token: string; release_id: string; recipient: string; created_at?: Date; used_at: Date | null };
}

/** Most confirmation mails one unconfirmed address receives in 24 hours. */
export const CONFIRMATIONS_PER_RECIPIENT_PER_DAY = 3;
/** How long a confirmation link works. */
const CONFIRMATION_HOURS = 24;

/** Most press-release e-mails one address receives in 24 hours. */
export const MAILS_PER_RECIPIENT_PER_DAY = 3;

/** Outcome of asking to send one more mail to a recipient. */
export type MailReservation = { kind: 'reserved'; mailId: number } | { kind: 'cap-reached' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How many rows a recipient had in a table in the last 24 hours, counted under a per-recipient
 * advisory lock held to the end of the transaction: simultaneous requests cannot both slip under a cap.
 */
async function countLastDay(
  trx: Transaction<MiaTables>,
  lock: number,
  table: 'mia_mails' | 'mia_confirmations',
  at: 'sent_at' | 'created_at',
  address: string,
): Promise<number> {
  await sql`select pg_advisory_xact_lock(${lock}, hashtext(${address}))`.execute(trx);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}
    where recipient = ${address} and ${sql.ref(at)} > now() - interval '24 hours'`.execute(trx);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Storage of Mia's releases, their images and the mails sent for them. Takes the server's
 * database (typed for the core tables) and works on the plugin's own tables.
 */
export class ReleaseStore {
  private readonly db: Kysely<MiaTables>;

  constructor(
    db: Kysely<any>,
    /** the auth module's accounts (whether an address is a verified account's) */
    private readonly accounts: AccountDirectory,
  ) {
    this.db = db as Kysely<MiaTables>;
  }

  /** Saves a new release with its three PNGs, in one transaction. */
  async insert(release: Omit<MiaRelease, 'created_at'>, images: ReleaseImages): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('mia_releases').values(release).execute();
      await trx
        .insertInto('mia_images')
        .values(IMAGE_NAMES.map((name) => ({ release_id: release.id, name, png: images[name] })))
        .execute();
    });
  }

  /** One release by id, or undefined (an id that is not a UUID is simply not found). */
  async find(id: string): Promise<MiaRelease | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.db.selectFrom('mia_releases').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row as MiaRelease | undefined;
  }

  /** One PNG of a release, or undefined. */
  async image(releaseId: string, name: ImageName): Promise<Buffer | undefined> {
    if (!UUID.test(releaseId)) return undefined;
    const row = await this.db
      .selectFrom('mia_images')
      .select('png')
      .where('release_id', '=', releaseId.toLowerCase())
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Buffer.from(row.png) : undefined;
  }

  /**
   * Records one more mail to `recipient` unless three were sent in the last 24 hours. The count
   * and the insert run under a per-recipient advisory lock, so simultaneous requests cannot both
   * slip under the cap.
   */
  async reserveMail(releaseId: string, recipient: string): Promise<MailReservation> {
    const address = recipient.trim().toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      if ((await countLastDay(trx, 727014, 'mia_mails', 'sent_at', address)) >= MAILS_PER_RECIPIENT_PER_DAY) return { kind: 'cap-reached' } as const;
      const row = await trx
        .insertInto('mia_mails')
        .values({ release_id: releaseId, recipient: address, job_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { kind: 'reserved', mailId: Number(row.id) } as const;
    });
  }

  /** Notes the queue job that carries a reserved mail. */
  async attachJob(mailId: number, jobId: string): Promise<void> {
    await this.db.updateTable('mia_mails').set({ job_id: jobId }).where('id', '=', mailId).execute();
  }

  /** Gives a reservation back when the mail could not be queued. */
  async releaseMail(mailId: number): Promise<void> {
    await this.db.deleteFrom('mia_mails').where('id', '=', mailId).execute();
  }

  /** Whether an address may receive press releases now: a verified account's, or confirmed through a link. */
  async mayReceive(recipient: string): Promise<boolean> {
    const address = recipient.trim().toLowerCase();
    const confirmed = await this.db.selectFrom('mia_recipients').select('recipient').where('recipient', '=', address).executeTakeFirst();
    return !!confirmed || (await this.accounts.isVerifiedAddress(address));
  }

  /**
   * A confirmation link's token for sending `releaseId` to `recipient`, or undefined when the
   * address already had CONFIRMATIONS_PER_RECIPIENT_PER_DAY of them in 24 hours (counted under a
   * per-recipient lock, as reserveMail does).
   */
  async newConfirmation(releaseId: string, recipient: string): Promise<string | undefined> {
    const address = recipient.trim().toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      if ((await countLastDay(trx, 727015, 'mia_confirmations', 'created_at', address)) >= CONFIRMATIONS_PER_RECIPIENT_PER_DAY) return undefined;
      const token = randomBytes(32).toString('base64url');
      await trx.insertInto('mia_confirmations').values({ token, release_id: releaseId, recipient: address, used_at: null }).execute();
      return token;
    });
  }

  /**
   * Uses a confirmation link once: the address is confirmed from now on and the release it was
   * for is returned (undefined for an unknown, used or expired token).
   */
  async confirm(token: string): Promise<{ releaseId: string; recipient: string } | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('mia_confirmations')
        .set({ used_at: sql<Date>`now()` })
        .where('token', '=', token)
        .where('used_at', 'is', null)
        .where('created_at', '>', sql<Date>`now() - make_interval(hours => ${CONFIRMATION_HOURS})`)
        .returning(['release_id', 'recipient'])
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .insertInto('mia_recipients')
        .values({ recipient: row.recipient })
        .onConflict((oc) => oc.column('recipient').doNothing())
        .execute();
      return { releaseId: row.release_id, recipient: row.recipient };
    });
  }
}
