import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineServerPlugin, downloadUrl, T, userOf } from '../../src/server';

/** The bundled sample: a real invoice (Acme GmbH to Karl E. Coyote, no. 42, EUR 1,589.80). */
export const SAMPLE_INVOICE_FILE = path.join(__dirname, 'samples', 'sample-invoice.pdf');
/** The name the sample gets in the user's files and on the page. */
export const SAMPLE_INVOICE_NAME = 'sample-invoice-acme-42.pdf';
/** The workflow the sample is put in front of: invoice data extraction. */
export const SAMPLE_INVOICE_WORKFLOW = '10004';

let cached: Buffer | undefined;
function sampleInvoice(): Buffer {
  cached ??= readFileSync(SAMPLE_INVOICE_FILE);
  return cached;
}

/**
 * Sample data for a first run (issue 25): a new user tries the invoice extraction on a real
 * invoice shipped with the app (plugins/sample-data/samples, Apache-2.0, see its README) instead
 * of hunting for one.
 *
 * POST /api/plugins/sample-data/invoice stores a copy of the sample in the caller's files, as
 * if they had uploaded it on workflow 10004's page, and answers what the upload answers (url,
 * key, bucket) plus its name; the page then runs the ordinary extraction on it.
 * GET /api/plugins/sample-data/invoice.pdf is the sample itself, for anyone to look at or to
 * attach to a test e-mail.
 */
export default defineServerPlugin({
  id: 'sample-data',
  needs: { files: T.FileStore, config: T.ServerConfig, events: T.EventBus },
  routes(app, { files, config, events }) {
    app.post('/api/plugins/sample-data/invoice', { auth: 'user', config: { rateLimit: { max: 20, timeWindow: '1 minute' } } }, async (request) => {
      const user = userOf(request);
      const stored = await files.put(user.id, sampleInvoice(), { originalName: SAMPLE_INVOICE_NAME, allowed: ['pdf'], maxBytes: config.maxUploadBytes });
      const workflow = SAMPLE_INVOICE_WORKFLOW;
      events.publish('file/stored', { owner: user.id, bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, workflow });
      return { url: downloadUrl(user, stored, config.secretKey), key: stored.key, bucket: stored.bucket, name: stored.originalName };
    });
    app.get('/api/plugins/sample-data/invoice.pdf', async (_request, reply) =>
      reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${SAMPLE_INVOICE_NAME}"`)
        .header('Cache-Control', 'public, max-age=3600')
        .send(sampleInvoice()),
    );
  },
});
