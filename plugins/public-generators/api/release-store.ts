import { sql, type Kysely } from 'kysely';

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
}

/** Most press-release e-mails one address receives in 24 hours. */
export const MAILS_PER_RECIPIENT_PER_DAY = 3;

/** Outcome of asking to send one more mail to a recipient. */
export type MailReservation = { kind: 'reserved'; mailId: number } | { kind: 'cap-reached' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Storage of Mia's releases, their images and the mails sent for them. Takes the server's
 * database (typed for the core tables) and works on the plugin's own tables.
 */
export class ReleaseStore {
  private readonly db: Kysely<MiaTables>;

  constructor(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any
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
      await sql`select pg_advisory_xact_lock(727014, hashtext(${address}))`.execute(trx);
      const { n } = await trx
        .selectFrom('mia_mails')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('recipient', '=', address)
        .where('sent_at', '>', sql<Date>`now() - interval '24 hours'`)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAILS_PER_RECIPIENT_PER_DAY) return { kind: 'cap-reached' } as const;
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
}
