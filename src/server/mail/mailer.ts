export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID (`<key@host>`): a retried send carries the same one, so receivers can de-duplicate. */
  messageId?: string;
}

/** Sends e-mail: SMTP when SMTP_URL is set, otherwise an outbox folder of .eml files. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}
