import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { MailParser, type AddressObject, type AttachmentStream, type Headers, type MessageText } from 'mailparser';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { ALL_FILE_KINDS } from '../files/file-kinds';
import type { FileStore } from '../files/file-store';
import type { FileRef, TriggerPayload } from './kinds';
import type { RecipeRow } from './user-recipes';

/** A recipe's inbound address: recipe-<its secret mail token>@INBOUND_MAIL_DOMAIN. */
export function inboundAddress(mailToken: string, domain: string): string {
  return `recipe-${mailToken}@${domain}`;
}

/** The mail token of an inbound address of this domain, or undefined for any other address. */
export function mailTokenOfAddress(address: string, domain: string): string | undefined {
  const m = /^recipe-([0-9a-f]{32})@(.+)$/i.exec(address.trim());
  if (!m || m[2].toLowerCase() !== domain.toLowerCase()) return undefined;
  return m[1].toLowerCase();
}

/** Whether a recipe is started by e-mail (its trigger is manual_email): only those take mail. */
export function takesMail(recipe: RecipeRow): boolean {
  return recipe.template.steps.some((s) => s.kind === 'trigger' && s.provider === 'manual_email');
}

/** An SMTP reply error: smtp-server sends its code and text to the client. */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export interface InboundMailDeps {
  domain: string;
  /** largest message accepted, bytes (announced with SIZE) */
  maxMessageBytes: number;
  /** largest attachment kept, bytes */
  maxAttachmentBytes: number;
  /** most attachments in one message (default 20); more is refused at DATA */
  maxAttachments?: number;
  /** most SMTP sessions open at once from one client address (default 5) */
  maxSessionsPerClient?: number;
  db: Db;
  files: FileStore;
  recipeById(id: number): Promise<RecipeRow | undefined>;
  /** runs the recipe with the e-mail as its trigger payload */
  run(recipe: RecipeRow, payload: TriggerPayload): Promise<unknown>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

const MAX_RECIPIENTS = 10;
const MAX_TEXT = 100_000;
/** The one refusal of an address: the same whether no recipe has it, it is stopped, or it takes no mail. */
const NO_RECIPE = 'No workflow receives e-mail at this address';

function addressesOf(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');
}

interface ParsedAttachment {
  name: string;
  content: Buffer;
  tooLarge: boolean;
}

interface ParsedMessage {
  headers: Headers;
  text: string;
  attachments: ParsedAttachment[];
}

/**
 * Parses a message as it streams in, within bounds: more than `maxBytes` or more than
 * `maxAttachments` attachments stops parsing at once, the rest of the message is read and
 * dropped, and the refusal (552) is answered as soon as the client ends DATA. An attachment over
 * `maxAttachmentBytes` is kept as a name only.
 */
function parseBounded(stream: SMTPServerDataStream, limits: { maxBytes: number; maxAttachments: number; maxAttachmentBytes: number }): Promise<ParsedMessage> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ skipHtmlToText: false });
    const result: ParsedMessage = { headers: new Map(), text: '', attachments: [] };
    let failed: Error | undefined;
    let ended = false;
    let bytes = 0;
    const fail = (e: Error) => {
      if (failed) return;
      failed = e;
      stream.unpipe(parser);
      parser.removeAllListeners('data');
      parser.on('error', () => undefined);
      parser.destroy();
      stream.resume(); // the client is still sending: read it to the end, keep nothing
      if (ended) reject(e);
    };
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes || stream.sizeExceeded)
        fail(smtpError(552, `The message is larger than ${Math.floor(limits.maxBytes / (1024 * 1024)) || 1} MB`));
    });
    stream.once('end', () => {
      ended = true;
      if (failed) reject(failed);
    });
    stream.once('error', (e) => fail(e));
    parser.on('headers', (h: Headers) => (result.headers = h));
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') {
        result.text = (data.text ?? '').slice(0, MAX_TEXT);
        return;
      }
      if (result.attachments.length >= limits.maxAttachments) {
        (data.content as Readable).resume();
        data.release();
        fail(smtpError(552, `At most ${limits.maxAttachments} attachments per message`));
        return;
      }
      const att: ParsedAttachment = { name: data.filename || 'attachment', content: Buffer.alloc(0), tooLarge: false };
      result.attachments.push(att);
      const chunks: Buffer[] = [];
      let size = 0;
      data.content.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxAttachmentBytes) att.tooLarge = true;
        else chunks.push(c);
      });
      data.content.on('end', () => {
        if (!att.tooLarge) att.content = Buffer.concat(chunks);
        data.release();
      });
    });
    parser.once('error', () => fail(smtpError(550, 'The message could not be read')));
    parser.once('end', () => {
      if (!failed) resolve(result);
    });
    stream.pipe(parser);
  });
}

/** Whether the e-mail trigger can receive mail now, and why not (for the setup screens). */
export type InboundMailState = { listening: true; port: number } | { listening: false; reason: string };

/**
 * The manual_email trigger: a real SMTP listener. Mail to recipe-<mail token>@INBOUND_MAIL_DOMAIN
 * runs that recipe with the message's from, recipients, subject and text as fields and its
 * attachments, stored in the recipe owner's FileStore, as files. Only a running recipe whose
 * trigger is e-mail takes mail; every other address is refused at RCPT with one and the same
 * answer, so addresses cannot be probed. The token is secret and rotatable; the message's own
 * To/Cc headers never become a field a later step could send to. A message over the size limit
 * or with too many attachments is refused at DATA; one client address holds at most a few
 * sessions. No authentication and no relaying: it only receives for its own domain.
 */
export class InboundMailListener {
  private server: SMTPServer | undefined;
  private current: InboundMailState = { listening: false, reason: 'E-mail triggers are turned off on this server.' };
  private readonly sessions = new Map<string, number>();

  constructor(private readonly deps: InboundMailDeps) {}

  /** Listening (and on which port), or not and why: the setup status shows it. */
  state(): InboundMailState {
    return this.current;
  }

  /** A recipe's inbound address (from its secret mail token), or null for no such recipe. */
  async addressOf(recipeId: number): Promise<string | null> {
    const { rows } = await sql<{ mail_token: string }>`select mail_token from user_recipes where id = ${recipeId}`.execute(this.deps.db);
    return rows[0] ? inboundAddress(rows[0].mail_token, this.deps.domain) : null;
  }

  /** Gives a recipe a new mail token: the old address stops working at once. Returns the new address. */
  async rotate(recipeId: number): Promise<string> {
    const { rows } = await sql<{ mail_token: string }>`
      update user_recipes set mail_token = replace(gen_random_uuid()::text, '-', '') where id = ${recipeId} returning mail_token`.execute(this.deps.db);
    return inboundAddress(rows[0].mail_token, this.deps.domain);
  }

  /** The recipe that takes mail at an address now (running, started by e-mail), else undefined. */
  private async recipeAt(address: string): Promise<RecipeRow | undefined> {
    const token = mailTokenOfAddress(address, this.deps.domain);
    if (!token) return undefined;
    const { rows } = await sql<{ id: number }>`select id from user_recipes where mail_token = ${token}`.execute(this.deps.db);
    const recipe = rows[0] ? await this.deps.recipeById(rows[0].id) : undefined;
    return recipe && recipe.running && takesMail(recipe) ? recipe : undefined;
  }

  /** Listens (port 0: a free port); resolves with the port taken. */
  async start(opts: { port: number; host: string }): Promise<number> {
    const perClient = this.deps.maxSessionsPerClient ?? 5;
    const server = new SMTPServer({
      name: this.deps.domain,
      banner: 'Flowmatic inbound mail',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: this.deps.maxMessageBytes,
      maxClients: 50,
      socketTimeout: 30_000,
      logger: false,
      closeTimeout: 2000,
      onConnect: (session, callback) => {
        const key = session.remoteAddress;
        const open = this.sessions.get(key) ?? 0;
        if (open >= perClient) return callback(smtpError(421, 'Too many connections from your address, try again later'));
        this.sessions.set(key, open + 1);
        (session as SMTPServerSession & { counted?: boolean }).counted = true;
        callback();
      },
      onClose: (session) => {
        if (!(session as SMTPServerSession & { counted?: boolean }).counted) return;
        const left = (this.sessions.get(session.remoteAddress) ?? 1) - 1;
        if (left > 0) this.sessions.set(session.remoteAddress, left);
        else this.sessions.delete(session.remoteAddress);
      },
      onRcptTo: (address, session, callback) => {
        this.checkRecipient(address, session).then(
          () => callback(),
          (e: Error) => callback(e),
        );
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(
          () => callback(),
          (e: Error) => callback(e),
        );
      },
    });
    server.on('error', (e) => this.deps.log.warn({ err: e }, `Inbound mail: ${e.message}`));
    try {
      await new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(opts.port, opts.host, () => {
          server.server.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why =
        code === 'EADDRINUSE'
          ? `port ${opts.port} is already in use`
          : code === 'EACCES'
            ? `no permission to use port ${opts.port}`
            : 'the port could not be opened';
      this.current = { listening: false, reason: `The server cannot receive e-mail: ${why}.` };
      throw e;
    }
    this.server = server;
    const port = (server.server.address() as AddressInfo).port;
    this.current = { listening: true, port };
    return port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.current = { listening: false, reason: 'E-mail triggers are turned off on this server.' };
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async checkRecipient(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) throw smtpError(452, `At most ${MAX_RECIPIENTS} recipients per message`);
    if (!(await this.recipeAt(address.address))) throw smtpError(550, NO_RECIPE);
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const mail = await parseBounded(stream, {
      maxBytes: this.deps.maxMessageBytes,
      maxAttachments: this.deps.maxAttachments ?? 20,
      maxAttachmentBytes: this.deps.maxAttachmentBytes,
    });
    const header = <V>(name: string) => mail.headers.get(name) as V | undefined;
    const date = header<Date>('date');
    const seen = new Set<number>();
    for (const rcpt of session.envelope.rcptTo) {
      const recipe = await this.recipeAt(rcpt.address);
      if (!recipe || seen.has(recipe.id)) continue;
      seen.add(recipe.id);
      const files: FileRef[] = [];
      const skipped: string[] = [];
      for (const a of mail.attachments) {
        if (a.tooLarge) {
          skipped.push(`${a.name}: larger than the upload limit`);
          continue;
        }
        try {
          const stored = await this.deps.files.put(recipe.userId, a.content, {
            originalName: a.name,
            allowed: ALL_FILE_KINDS,
            maxBytes: this.deps.maxAttachmentBytes,
            bucket: 'automation',
          });
          files.push({ bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size });
        } catch (e) {
          skipped.push(`${a.name}: ${(e as Error).message}`);
        }
      }
      const payload: TriggerPayload = {
        source: 'manual_email',
        data: {
          from: addressesOf(header<AddressObject>('from')),
          // what the message's own To: says, under a name no step sends to (a sender chooses it freely)
          recipients: addressesOf(header<AddressObject | AddressObject[]>('to')),
          subject: String(header<string>('subject') ?? ''),
          text: mail.text,
          message_id: header<string>('message-id') ?? null,
          date: date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
          ...(skipped.length ? { skipped_attachments: skipped } : {}),
        },
        files,
      };
      try {
        await this.deps.run(recipe, payload);
      } catch (e) {
        // the job record names the failure ('Connector not found.' …); the sender is not told
        this.deps.log.warn({ err: e, recipeId: recipe.id }, `Inbound mail for recipe ${recipe.id} did not run: ${(e as Error).message}`);
      }
    }
  }
}
