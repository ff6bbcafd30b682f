/**
 * Sends a test e-mail to an e-mail-triggered recipe of a running Flowmatic (issue 25):
 *
 *   npx tsx tests/tools/send-test-email.ts recipe-<secret>@inbound.localhost [file ...]
 *
 * The address is the one the recipe's setup screen shows. Each file is attached; with none, the
 * sample invoice shipped with the app (plugins/sample-data/samples/sample-invoice.pdf) is. The
 * message goes to the inbound SMTP listener of `npm start`: INBOUND_SMTP_HOST (127.0.0.1) and
 * INBOUND_SMTP_PORT (2525), read from the environment as the server reads them. It prints what
 * the server answered, and exits 1 with a sentence when it refused or could not be reached.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export const SAMPLE_ATTACHMENT = path.resolve(__dirname, '../../plugins/sample-data/samples/sample-invoice.pdf');
export const DEFAULT_SUBJECT = 'Test invoice (send-test-email)';

export interface TestEmail {
  to: string;
  files?: string[];
  host?: string;
  port?: number;
  from?: string;
  subject?: string;
}

/** A sentence for the person at the terminal: what went wrong and what to do about it. */
export class TestEmailError extends Error {}

/** Sends the message; resolves to the server's answer line, or throws a TestEmailError. */
export async function sendTestEmail(mail: TestEmail): Promise<string> {
  const host = mail.host ?? '127.0.0.1';
  const port = mail.port ?? 2525;
  if (!/^[^@\s]+@[^@\s]+$/.test(mail.to)) throw new TestEmailError(`"${mail.to}" is not an e-mail address. Copy the recipe's address from its setup screen.`);
  const files = mail.files?.length ? mail.files : [SAMPLE_ATTACHMENT];
  for (const f of files) if (!existsSync(f)) throw new TestEmailError(`There is no file ${f} to attach.`);
  const transport = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true, connectionTimeout: 5000 });
  try {
    const info = await transport.sendMail({
      from: mail.from ?? 'Test sender <sender@example.com>',
      to: mail.to,
      subject: mail.subject ?? DEFAULT_SUBJECT,
      text: `A test e-mail with ${files.length === 1 ? 'one file' : `${files.length} files`} attached.`,
      attachments: files.map((f) => ({ filename: path.basename(f), content: readFileSync(f) })),
    });
    return info.response;
  } catch (e) {
    const err = e as { code?: string; responseCode?: number; response?: string };
    if (err.code === 'ECONNREFUSED' || err.code === 'ETIMEDOUT' || err.code === 'ESOCKET')
      throw new TestEmailError(`Nothing answers at ${host}:${port}. Is npm start running, with its inbound mail on that port (INBOUND_SMTP_PORT)?`);
    if (err.responseCode) throw new TestEmailError(`The server refused the e-mail: ${err.response ?? err.responseCode}`);
    throw new TestEmailError(`The e-mail could not be sent: ${(e as Error).message}`);
  } finally {
    transport.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [to, ...files] = argv;
  if (!to) {
    console.error('Usage: npx tsx tests/tools/send-test-email.ts recipe-<secret>@inbound.localhost [file ...]');
    return 1;
  }
  const port = Number(process.env.INBOUND_SMTP_PORT || 2525);
  try {
    const answer = await sendTestEmail({ to, files, host: process.env.INBOUND_SMTP_HOST || '127.0.0.1', port });
    console.log(`Sent to ${to}. The server answered: ${answer}`);
    console.log("The recipe's run shows on its setup screen and in its job list.");
    return 0;
  } catch (e) {
    console.error(e instanceof TestEmailError ? e.message : e);
    return 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
