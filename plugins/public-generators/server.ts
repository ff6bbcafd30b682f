import { defineServerPlugin } from '../../src/server';
import { Accounts, T } from '../../src/server';
import { HttpError, notFound, keyedRateLimit } from '../../src/server';
import { MAIL_JOB } from '../../src/server';
import { readWebsite } from '../../src/server';
import type { SafeFetchOptions } from '../../src/server';
import sendToMiaSchema from '../../schemas/public-generators/send-to-mia.schema.json';
import emailByMiaSchema from '../../schemas/public-generators/email-by-mia.schema.json';
import pageSummarizationSchema from '../../schemas/public-generators/page-summarization.schema.json';
import generatePitchSchema from '../../schemas/public-generators/generate-pitch.schema.json';
import { asHttp } from './api/errors';
import { compileFieldsSchema, readFormFields } from './api/form-fields';
import { migrations } from './api/migrations';
import { writeMiaRelease, type MiaRequest } from './api/mia-release';
import { miaConfirmationMail, miaReleaseMail, type MiaImageLinks } from './api/mia-mail';
import { generatePitch, summarisePage, type PitchInput } from './api/pitcher';
import { IMAGE_NAMES, ReleaseStore, type ImageName, type MiaRelease } from './api/release-store';

/** Requests per minute per client address on the anonymous endpoints. */
export const RATE_LIMITS = { sendToMia: 5, emailByMia: 10, pageSummarization: 10, generate: 20, images: 300, confirm: 20 } as const;
/** Requests per hour naming one e-mail address (whatever the client), on /mia's and /hal's forms. */
export const RECIPIENT_LIMITS = { sendToMia: 10, emailByMia: 10, generate: 20 } as const;
export const CONFIRMATION_SENT = (email: string) => `We sent a confirmation link to ${email}. Click it and the press release follows.`;
export const CONFIRMATIONS_REACHED = 'This address has already been sent 3 confirmation links today. Please use one of them, or try again tomorrow.';
export const CONFIRM_LINK_NOT_VALID = 'This confirmation link is not valid any more. Please ask for the press release again.';
export const CAP_REACHED = 'This address has already received 3 press releases today. Please try again tomorrow.';
export const RELEASE_NOT_FOUND = 'That press release was not found for this e-mail address. Please generate it again.';

const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

interface EmailByMiaFields {
  template_id: string | number;
  email: string;
  id: string;
  name?: string;
  url?: string;
  product_name?: string;
}

/**
 * The public generators' API: /mia's press releases (send_to_mia, its images, apiEmailByMia) and
 * /hal's pitches (page summarisation and pitch writing). All anonymous, rate-limited per client
 * address, validated by the JSON Schemas in schemas/public-generators/.
 */
export default defineServerPlugin({
  id: 'public-generators',
  needs: { text: T.TextGenerator, queue: T.JobQueue, config: T.ServerConfig, db: T.Db, log: T.Logger, accounts: Accounts },
  migrations,
  routes(app, { text, queue, config, db, log, accounts }) {
    const store = new ReleaseStore(db, accounts);
    const fetchOptions: SafeFetchOptions = { allowLoopback: config.webFetchAllowLoopback };
    const validateEmailFields = compileFieldsSchema<EmailByMiaFields>(emailByMiaSchema);

    const imageUrl = (release: Pick<MiaRelease, 'id'>, name: ImageName) => `${config.publicUrl}/api/plugins/public-generators/images/${release.id}/${name}.png`;
    const imageLinks = (release: Pick<MiaRelease, 'id'>): MiaImageLinks => ({
      log_image: imageUrl(release, 'logo'),
      image_1: imageUrl(release, 'image-1'),
      image_2: imageUrl(release, 'image-2'),
    });

    /** the e-mail address a form names, lower-cased (undefined when it names none) */
    const emailOf = (request: { body?: unknown }) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;
    };
    const perRecipient = (name: keyof typeof RECIPIENT_LIMITS) =>
      keyedRateLimit(app, { name: `public-generators:${name}`, max: RECIPIENT_LIMITS[name], timeWindow: '1 hour', keyOf: emailOf });

    /** Queues the release mail to its address, within the daily cap. */
    const sendRelease = async (release: MiaRelease) => {
      const reservation = await store.reserveMail(release.id, release.email);
      if (reservation.kind === 'cap-reached') throw new HttpError(429, CAP_REACHED);
      let jobId: string;
      try {
        jobId = await queue.add(MAIL_JOB, miaReleaseMail(release, imageLinks(release)), { attempts: 5, backoffMs: 2000 });
      } catch (error) {
        await store.releaseMail(reservation.mailId);
        throw error;
      }
      await store.attachJob(reservation.mailId, jobId);
    };

    app.post(
      '/api/platform/send_to_mia',
      { schema: { body: sendToMiaSchema }, config: perMinute(RATE_LIMITS.sendToMia), preHandler: perRecipient('sendToMia') },
      async (request) => {
        const body = request.body as MiaRequest;
        const { release, images } = await asHttp(() =>
          writeMiaRelease(body, {
            text,
            fetchOptions,
            onLogoFallback: (reason) => log.info({ reason }, "mia: generated a logo instead of the site's own"),
          }),
        );
        await store.insert(release, images);
        return {
          status: 'success',
          id: release.id,
          title: release.title,
          paraphrase_1: release.paraphrase_1,
          paraphrase_2: release.paraphrase_2,
          ...imageLinks(release),
        };
      },
    );

    app.get('/api/plugins/public-generators/images/:releaseId/:file', { config: perMinute(RATE_LIMITS.images) }, async (request, reply) => {
      const { releaseId, file } = request.params as { releaseId: string; file: string };
      const name = /^(.+)\.png$/.exec(file)?.[1] as ImageName | undefined;
      if (!name || !IMAGE_NAMES.includes(name)) throw notFound('Image not found.');
      const png = await store.image(releaseId, name);
      if (!png) throw notFound('Image not found.');
      return reply
        .header('Content-Type', 'image/png')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(png);
    });

    // its form is read in the handler, so its address is counted there
    const mailFormsTo = new WeakMap<object, string>();
    const emailByMiaLimit = keyedRateLimit(app, {
      name: 'public-generators:emailByMia',
      max: RECIPIENT_LIMITS.emailByMia,
      timeWindow: '1 hour',
      keyOf: (r) => mailFormsTo.get(r),
    });
    app.post('/api/platform/apiEmailByMia', { config: perMinute(RATE_LIMITS.emailByMia) }, async (request, reply) => {
      const fields = await readFormFields(request, validateEmailFields);
      mailFormsTo.set(request, fields.email.trim().toLowerCase());
      await emailByMiaLimit(request, reply);
      const release = await store.find(fields.id);
      // only a release send_to_mia wrote, and only to the address it was written for: no open relay
      if (!release || !release.email || release.email !== fields.email.trim().toLowerCase()) throw notFound(RELEASE_NOT_FOUND);
      // an address no one has shown to be theirs gets a confirmation link first, nothing else
      if (!(await store.mayReceive(release.email))) {
        const token = await store.newConfirmation(release.id, release.email);
        if (!token) throw new HttpError(429, CONFIRMATIONS_REACHED);
        await queue.add(MAIL_JOB, miaConfirmationMail(release.email, `${config.publicUrl}/api/plugins/public-generators/confirm/${token}`), {
          attempts: 5,
          backoffMs: 2000,
        });
        return { status: 'success', message: CONFIRMATION_SENT(release.email) };
      }
      await sendRelease(release);
      return { status: 'success', message: `The press release is on its way to ${release.email}.` };
    });

    // the link of the confirmation mail: confirms the address and sends the release it was asked for
    app.get('/api/plugins/public-generators/confirm/:token', { config: perMinute(RATE_LIMITS.confirm) }, async (request, reply) => {
      const page = (status: number, message: string) =>
        reply
          .code(status)
          .type('text/html; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .send(
            `<!doctype html><html><head><meta charset="utf-8"><title>Press release</title></head><body style="font-family:Arial,Helvetica,sans-serif;padding:24px"><p>${message}</p></body></html>`,
          );
      const confirmed = await store.confirm(String((request.params as { token: string }).token));
      const release = confirmed && (await store.find(confirmed.releaseId));
      if (!release) return page(404, CONFIRM_LINK_NOT_VALID);
      try {
        await sendRelease(release);
      } catch (e) {
        if (e instanceof HttpError && e.statusCode === 429) return page(429, CAP_REACHED);
        throw e;
      }
      return page(200, 'Thank you: your address is confirmed and the press release is on its way.');
    });

    app.post(
      '/api/pitcher/page-summarization/',
      { schema: { body: pageSummarizationSchema }, config: perMinute(RATE_LIMITS.pageSummarization) },
      async (request) => {
        const { url } = request.body as { url: string };
        const pageSummarization = await asHttp(async () => summarisePage(await readWebsite(url, { fetchOptions })));
        return { pageSummarization };
      },
    );

    app.post(
      '/api/pitcher/generate',
      { schema: { body: generatePitchSchema }, config: perMinute(RATE_LIMITS.generate), preHandler: perRecipient('generate') },
      async (request) => {
        const body = request.body as PitchInput & { email: string };
        const pitch = await asHttp(() => generatePitch(body, text));
        return { pitch };
      },
    );
  },
});
