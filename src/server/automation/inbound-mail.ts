import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { ALL_FILE_KINDS } from '../files/file-kinds';
import type { FileStore } from '../files/file-store';
import type { FileRef, TriggerPayload } from './kinds';
import type { RecipeRow } from './user-recipes';

/** A recipe's inbound address: recipe-<id>@INBOUND_MAIL_DOMAIN. */
export function inboundAddress(recipeId: number, domain: string): string {
  return `recipe-${recipeId}@${domain}`;
}

/** The recipe id of an inbound address, or undefined for any other address. */
export function recipeIdOfAddress(address: string, domain: string): number | undefined {
  const m = /^recipe-([1-9][0-9]{0,9})@(.+)$/i.exec(address.trim());
  if (!m || m[2].toLowerCase() !== domain.toLowerCase()) return undefined;
  const id = Number(m[1]);
  return id <= 2_147_483_647 ? id : undefined;
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
  files: FileStore;
  recipeById(id: number): Promise<RecipeRow | undefined>;
  /** runs the recipe with the e-mail as its trigger payload */
  run(recipe: RecipeRow, payload: TriggerPayload): Promise<unknown>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

const MAX_RECIPIENTS = 10;
const MAX_TEXT = 100_000;

function addressesOf(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');
}

/** Whether the e-mail trigger can receive mail now, and why not (for the setup screens). */
export type InboundMailState =
  | { listening: true; port: number }
  | { listening: false; reason: string };

/**
 * The manual_email trigger: a real SMTP listener. Mail to recipe-<id>@INBOUND_MAIL_DOMAIN runs
 * that recipe with the message's from, to, subject and text as fields and its attachments,
 * stored in the recipe owner's FileStore, as files. Any other address, or a stopped recipe, is
 * refused at RCPT; a message over the size limit is refused at DATA. No authentication and no
 * relaying: it only receives for its own domain.
 */
export class InboundMailListener {
  private server: SMTPServer | undefined;
  private current: InboundMailState = { listening: false, reason: 'E-mail triggers are turned off on this server.' };

  constructor(private readonly deps: InboundMailDeps) {}

  /** Listening (and on which port), or not and why: the setup status shows it. */
  state(): InboundMailState {
    return this.current;
  }

  /** Listens (port 0: a free port); resolves with the port taken. */
  async start(opts: { port: number; host: string }): Promise<number> {
    const server = new SMTPServer({
      name: this.deps.domain,
      banner: 'Flowmatic inbound mail',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: this.deps.maxMessageBytes,
      maxClients: 50,
      logger: false,
      closeTimeout: 2000,
      onRcptTo: (address, session, callback) => {
        this.checkRecipient(address, session).then(() => callback(), (e: Error) => callback(e));
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(() => callback(), (e: Error) => callback(e));
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
      const why = code === 'EADDRINUSE' ? `port ${opts.port} is already in use` : code === 'EACCES' ? `no permission to use port ${opts.port}` : 'the port could not be opened';
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
    const id = recipeIdOfAddress(address.address, this.deps.domain);
    const recipe = id === undefined ? undefined : await this.deps.recipeById(id);
    if (!recipe) throw smtpError(550, `No such recipe address: ${address.address.slice(0, 100)}`);
    if (!recipe.running) throw smtpError(550, 'This workflow is stopped: start it, then send again');
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const mail = await simpleParser(stream as unknown as Readable, { skipHtmlToText: false });
    if (stream.sizeExceeded) throw smtpError(552, `The message is larger than ${Math.floor(this.deps.maxMessageBytes / (1024 * 1024))} MB`);
    const ids = session.envelope.rcptTo.map((r) => recipeIdOfAddress(r.address, this.deps.domain)).filter((x): x is number => x !== undefined);
    for (const id of [...new Set(ids)]) {
      const recipe = await this.deps.recipeById(id);
      if (!recipe || !recipe.running) continue;
      const files: FileRef[] = [];
      const skipped: string[] = [];
      for (const a of mail.attachments) {
        const name = a.filename || 'attachment';
        if (a.size > this.deps.maxAttachmentBytes) {
          skipped.push(`${name}: larger than the upload limit`);
          continue;
        }
        try {
          const stored = await this.deps.files.put(recipe.userId, a.content, { originalName: name, allowed: ALL_FILE_KINDS, maxBytes: this.deps.maxAttachmentBytes, bucket: 'automation' });
          files.push({ bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, size: stored.size });
        } catch (e) {
          skipped.push(`${name}: ${(e as Error).message}`);
        }
      }
      const payload: TriggerPayload = {
        source: 'manual_email',
        data: {
          from: addressesOf(mail.from),
          to: addressesOf(mail.to),
          subject: mail.subject ?? '',
          text: (mail.text ?? '').slice(0, MAX_TEXT),
          message_id: mail.messageId ?? null,
          date: mail.date ? mail.date.toISOString() : null,
          ...(skipped.length ? { skipped_attachments: skipped } : {}),
        },
        files,
      };
      try {
        await this.deps.run(recipe, payload);
      } catch (e) {
        // the job record names the failure ('Connector not found.' …); the sender is not told
        this.deps.log.warn({ err: e, recipeId: id }, `Inbound mail for recipe ${id} did not run: ${(e as Error).message}`);
      }
    }
  }
}
