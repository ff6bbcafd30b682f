import type { MailMessage } from '../mail/mailer';

const PRODUCT = 'Flowmatic';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Words that look like a web address or markup: never put in a greeting (phishing bait). */
const UNSAFE_WORD = /[<>`\\/:@={}[\]]|^www\.|\.(?:[a-z]{2,}|xn--[a-z0-9-]+)$|%[0-9a-f]{2}/i;

/**
 * The first name for a greeting: the first word of the name, unless it looks like a URL,
 * an address or markup (a sign-up name is free text anyone can type), then 'there'.
 */
export function greetingName(name: string): string {
  const first = name.normalize('NFKC').trim().split(/\s+/)[0] ?? '';
  if (!first || first.length > 40 || UNSAFE_WORD.test(first) || /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e]/.test(first)) return 'there';
  return first;
}

function firstName(name: string): string {
  return greetingName(name);
}

/** A plain-text body plus a simple HTML version of the same paragraphs and one button link. */
function compose(
  to: string,
  subject: string,
  greeting: string,
  before: string[],
  link: { url: string; label: string } | undefined,
  after: string[],
): MailMessage {
  const text = [greeting, '', ...before.flatMap((p) => [p, '']), ...(link ? [link.url, ''] : []), ...after.flatMap((p) => [p, '']), `The ${PRODUCT} team`].join(
    '\n',
  );
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:Segoe UI,Helvetica,Arial,sans-serif;color:#242424;line-height:1.5;max-width:560px">',
    p(greeting),
    ...before.map(p),
    link
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(link.url)}" style="background:#0f6cbd;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(link.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:#616161">If the button does not work, copy this address into your browser:<br>${escapeHtml(link.url)}</p>`
      : '',
    ...after.map(p),
    p(`The ${PRODUCT} team`),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

export function verificationEmail(to: string, name: string, url: string): MailMessage {
  return compose(
    to,
    `Verify your ${PRODUCT} account`,
    `Hi ${firstName(name)},`,
    [`Welcome to ${PRODUCT}! Your 30-day free trial is ready. Please confirm your e-mail address to start using it:`],
    { url, label: 'Verify my account' },
    ['The link works once and expires in 3 days.', `If you did not sign up for ${PRODUCT}, you can ignore this e-mail and no account will be activated.`],
  );
}

export function passwordResetEmail(to: string, name: string, url: string): MailMessage {
  return compose(
    to,
    `Reset your ${PRODUCT} password`,
    `Hi ${firstName(name)},`,
    [`We received a request to reset the password of your ${PRODUCT} account. Choose a new password here:`],
    { url, label: 'Reset my password' },
    ['The link works once and expires in 1 hour.', 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.'],
  );
}

/**
 * To the current address when a change is asked for: the old address stays in force until the
 * new one is confirmed, and the link here cancels the change.
 */
export function emailChangedEmail(to: string, name: string, newEmail: string, cancelUrl: string): MailMessage {
  return compose(
    to,
    `Your ${PRODUCT} e-mail address was changed`,
    `Hi ${firstName(name)},`,
    [
      `Someone asked to change the e-mail address of your ${PRODUCT} account to ${newEmail}. The change takes effect once that address is confirmed; until then, keep logging in with this one.`,
      'If you did not ask for this, cancel the change here and change your password:',
    ],
    { url: cancelUrl, label: 'Cancel the change' },
    ['The link works once and expires in 1 day.'],
  );
}

/** To the new address: the link confirms it, and only then does the account move to it. */
export function confirmNewEmailEmail(to: string, name: string, url: string): MailMessage {
  return compose(
    to,
    `Confirm your new ${PRODUCT} e-mail address`,
    `Hi ${firstName(name)},`,
    [`Please confirm that this is the new e-mail address of your ${PRODUCT} account:`],
    { url, label: 'Confirm my new address' },
    ['The link works once and expires in 1 day.', 'If you did not ask for this, ignore this e-mail: nothing changes.'],
  );
}
