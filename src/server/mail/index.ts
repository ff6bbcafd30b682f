import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import { defineServerPlugin } from '../plugin';
import type { JobQueue } from '../queue/job-queue';
import * as T from '../tokens';
import type { MailMessage, Mailer } from './mailer';

export type { MailMessage, Mailer } from './mailer';

export const MAIL_JOB = 'mail.send';

/** SMTP through nodemailer. */
export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(m: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: m.messageId });
  }
  async close(): Promise<void> {
    this.transport.close();
  }
}

/** Writes each message as an .eml file in DATA_DIR/outbox and logs its links. */
export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log?: FastifyBaseLogger,
  ) {}
  async send(m: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId: m.messageId });
    // the outbox holds live reset links: owner only
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
    writeFileSync(file, info.message as Buffer, { mode: 0o600 });
    const links = m.text.match(/https?:\/\/\S+/g) ?? [];
    this.log?.info({ to: m.to, subject: m.subject, file, links }, `Mail to ${m.to} written to the outbox${links.length ? `: ${links.join(' ')}` : ''}`);
  }
}

export function createMailer(config: ServerConfig, log?: FastifyBaseLogger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, log);
}

/** Queues a message: sent by the mail job, retried with backoff if the SMTP server fails. */
export async function queueMail(queue: JobQueue, message: MailMessage): Promise<string> {
  return queue.add(MAIL_JOB, message, { attempts: 5, backoffMs: 2000 });
}

export const mailModule = defineServerPlugin({
  id: 'mail',
  needs: { mailer: T.Mailer },
  jobs: {
    [MAIL_JOB]: {
      concurrency: 4,
      handler: async (message: MailMessage, { mailer }) => {
        await mailer.send(message);
        return { sent: true };
      },
    },
  },
});
