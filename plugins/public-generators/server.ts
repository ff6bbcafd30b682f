import { defineServerPlugin } from '../../src/server';
import { T } from '../../src/server';
import { HttpError, notFound } from '../../src/server';
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
import { miaReleaseMail, type MiaImageLinks } from './api/mia-mail';
import { generatePitch, summarisePage, type PitchInput } from './api/pitcher';
import { IMAGE_NAMES, ReleaseStore, type ImageName, type MiaRelease } from './api/release-store';

/** Requests per minute per client address on the anonymous endpoints. */
export const RATE_LIMITS = { sendToMia: 5, emailByMia: 10, pageSummarization: 10, generate: 20, images: 300 } as const;
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
  needs: { text: T.TextGenerator, queue: T.JobQueue, config: T.ServerConfig, db: T.Db, log: T.Logger },
  migrations,
  routes(app, { text, queue, config, db, log }) {
    const store = new ReleaseStore(db);
    const fetchOptions: SafeFetchOptions = { allowLoopback: config.webFetchAllowLoopback };
    const validateEmailFields = compileFieldsSchema<EmailByMiaFields>(emailByMiaSchema);

    const imageUrl = (release: Pick<MiaRelease, 'id'>, name: ImageName) =>
      `${config.publicUrl}/api/plugins/public-generators/images/${release.id}/${name}.png`;
    const imageLinks = (release: Pick<MiaRelease, 'id'>): MiaImageLinks => ({
      log_image: imageUrl(release, 'logo'),
      image_1: imageUrl(release, 'image-1'),
      image_2: imageUrl(release, 'image-2'),
    });

    app.post('/api/platform/send_to_mia', { schema: { body: sendToMiaSchema }, config: perMinute(RATE_LIMITS.sendToMia) }, async (request) => {
      const body = request.body as MiaRequest;
      const { release, images } = await asHttp(() =>
        writeMiaRelease(body, {
          text,
          fetchOptions,
          onLogoFallback: (reason) => log.info({ reason }, 'mia: generated a logo instead of the site\'s own'),
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
    });

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

    app.post('/api/platform/apiEmailByMia', { config: perMinute(RATE_LIMITS.emailByMia) }, async (request) => {
      const fields = await readFormFields(request, validateEmailFields);
      const release = await store.find(fields.id);
      // only a release send_to_mia wrote, and only to the address it was written for: no open relay
      if (!release || !release.email || release.email !== fields.email.trim().toLowerCase()) throw notFound(RELEASE_NOT_FOUND);
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
      return { status: 'success', message: `The press release is on its way to ${release.email}.` };
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

    app.post('/api/pitcher/generate', { schema: { body: generatePitchSchema }, config: perMinute(RATE_LIMITS.generate) }, async (request) => {
      const body = request.body as PitchInput & { email: string };
      const pitch = await asHttp(() => generatePitch(body, text));
      return { pitch };
    });
  },
});
