import type { MailMessage } from '../../../src/server';
import type { MiaRelease } from './release-store';

/** The e-mail template the /mia page asks for (template_id 14): the press release itself. */
export const MIA_TEMPLATE_ID = 14;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Paragraphs (blank-line separated) as escaped <p> elements, single line breaks kept. */
function htmlParagraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** One line, no control characters: safe as a mail header. */
function headerText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

export interface MiaImageLinks {
  log_image: string;
  image_1: string;
  image_2: string;
}

/**
 * Template 14: the press release Mia wrote, to the address it was written for. Plain text plus an
 * HTML version in which every value from the release or the website is escaped.
 */
export function miaReleaseMail(release: MiaRelease, images: MiaImageLinks): MailMessage {
  const subject = headerText(`Your press release from Mia: ${release.title}`);
  const text = [
    `Hello,`,
    `Here is the press release Mia wrote for ${release.product} by ${release.company}, from ${release.url}.`,
    `HEADLINE\n${release.title}`,
    `VERSION 1\n\n${release.paraphrase_1}`,
    `VERSION 2\n\n${release.paraphrase_2}`,
    `IMAGES\nLogo: ${images.log_image}\nImage 1: ${images.image_1}\nImage 2: ${images.image_2}`,
    `You receive this because the address was entered on the press-release generator. At most three press releases are sent to one address a day.`,
  ].join('\n\n');
  const img = (src: string, alt: string, width: number) =>
    `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${width}" style="max-width:100%;height:auto;display:block;margin:0 0 12px">`;
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#242424;max-width:640px;margin:0 auto;padding:16px">
<p>Hello,</p>
<p>Here is the press release Mia wrote for <strong>${escapeHtml(release.product)}</strong> by <strong>${escapeHtml(release.company)}</strong>, from ${escapeHtml(release.url)}.</p>
${img(images.log_image, `Logo of ${release.company}`, 120)}
<h1 style="font-size:22px">${escapeHtml(release.title)}</h1>
<h2 style="font-size:16px">Version 1</h2>
${htmlParagraphs(release.paraphrase_1)}
<h2 style="font-size:16px">Version 2</h2>
${htmlParagraphs(release.paraphrase_2)}
${img(images.image_1, `Image 1 for ${release.title}`, 600)}
${img(images.image_2, `Image 2 for ${release.product} by ${release.company}`, 600)}
<p style="color:#616161;font-size:12px">You receive this because the address was entered on the press-release generator. At most three press releases are sent to one address a day.</p>
</body></html>`;
  return { to: release.email, subject, text, html };
}

/**
 * The confirmation asked of an address before Mia mails it a press release: fixed words and the
 * link only, nothing the person who typed the address chose (no company, site, title or text).
 */
export function miaConfirmationMail(to: string, link: string): MailMessage {
  const text = [
    'Hello,',
    'Someone asked the press-release generator to e-mail a press release to this address. If that was you, confirm with this link and the press release follows:',
    link,
    'If it was not you, ignore this message: nothing will be sent. The link works for 24 hours.',
  ].join('\n\n');
  const html = `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#242424;max-width:640px;margin:0 auto;padding:16px">
<p>Hello,</p>
<p>Someone asked the press-release generator to e-mail a press release to this address. If that was you, confirm with this link and the press release follows:</p>
<p><a href="${escapeHtml(link)}">Confirm and send the press release</a></p>
<p style="color:#616161;font-size:12px">If it was not you, ignore this message: nothing will be sent. The link works for 24 hours.</p>
</body></html>`;
  return { to, subject: 'Confirm your e-mail address for the press-release generator', text, html };
}
