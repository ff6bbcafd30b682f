import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Connections,
  defineServerPlugin,
  downloadUrl,
  forbidden,
  HttpError,
  NotConnectedError,
  notFound,
  parseId,
  RecipeTargetStore,
  T,
  userOf,
} from '../../src/server';

/** The bundled sample: a real invoice (Acme GmbH to Karl E. Coyote, no. 42, EUR 1,589.80). */
export const SAMPLE_INVOICE_FILE = path.join(__dirname, 'samples', 'sample-invoice.pdf');
/** The name the sample gets in the user's files and on the page. */
export const SAMPLE_INVOICE_NAME = 'sample-invoice-acme-42.pdf';
/** The workflow the sample is put in front of: invoice data extraction. */
export const SAMPLE_INVOICE_WORKFLOW = '10004';

/**
 * The invoices a guided first run puts in a combination's sandbox Drive folder: the sample above
 * and a second real one from the same corpus (Lieferant GmbH to Kunden AG Mitte, no. 471102,
 * EUR 529.87; Apache-2.0, see the samples' README).
 */
export const SAMPLE_DRIVE_INVOICES = [
  { file: SAMPLE_INVOICE_FILE, name: SAMPLE_INVOICE_NAME },
  { file: path.join(__dirname, 'samples', 'sample-invoice-lieferant-471102.pdf'), name: 'sample-invoice-lieferant-471102.pdf' },
] as const;

const cache = new Map<string, Buffer>();
function bytesOf(file: string): Buffer {
  let b = cache.get(file);
  if (!b) cache.set(file, (b = readFileSync(file)));
  return b;
}
const sampleInvoice = () => bytesOf(SAMPLE_INVOICE_FILE);

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
 * POST /api/plugins/sample-data/drive-folder/:recipeId (outside production, while Google Drive
 * runs on its sandbox; 404 otherwise) puts SAMPLE_DRIVE_INVOICES into the caller's recipe's
 * watched Drive folder through the sandbox's own drop path, as a file dropped on the sandbox
 * page; the recipe's trigger then finds them as it finds any new file.
 */
export default defineServerPlugin({
  id: 'sample-data',
  needs: { files: T.FileStore, config: T.ServerConfig, events: T.EventBus, connections: Connections, recipes: RecipeTargetStore },
  routes(app, { files, config, events, connections, recipes }) {
    app.post('/api/plugins/sample-data/invoice', { auth: 'user', config: { rateLimit: { max: 20, timeWindow: '1 minute' } } }, async (request) => {
      const user = userOf(request);
      const stored = await files.put(user.id, sampleInvoice(), { originalName: SAMPLE_INVOICE_NAME, allowed: ['pdf'], maxBytes: config.maxUploadBytes });
      const workflow = SAMPLE_INVOICE_WORKFLOW;
      events.publish('file/stored', { owner: user.id, bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, workflow });
      return { url: downloadUrl(user, stored, config.secretKey), key: stored.key, bucket: stored.bucket, name: stored.originalName };
    });
    app.post(
      '/api/plugins/sample-data/drive-folder/:recipeId',
      { auth: 'user', config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
      async (request) => {
        const drive = connections.endpoints('google_drive');
        if (config.production || !drive?.sandbox) throw notFound('There is no sandbox Google Drive on this server.');
        const user = userOf(request);
        if (!user.workatoId) throw forbidden('This account has no workspace yet.');
        const recipe = await recipes.targets(parseId((request.params as { recipeId: string }).recipeId, 'The recipe id'));
        if (!recipe || recipe.managedUserId !== user.workatoId) throw notFound('Recipe not found.');
        let accountId: string | null;
        try {
          accountId = (await connections.accessToken(user.workatoId, 'google_drive')).accountId;
        } catch (e) {
          if (e instanceof NotConnectedError) throw new HttpError(409, 'Connect Google Drive first, then add the sample invoices.');
          throw e;
        }
        if (!recipe.folderId || !accountId)
          throw new HttpError(409, 'The Drive folder of this automation is still being made. Wait a few seconds and press the button again.');
        const added: Array<{ id: string; name: string }> = [];
        for (const sample of SAMPLE_DRIVE_INVOICES) {
          const q = new URLSearchParams({ account: accountId, folder: recipe.folderId, name: sample.name, type: 'application/pdf' });
          const res = await fetch(`${new URL(drive.endpoints.drive).origin}/sandbox/drop?${q}`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: new Uint8Array(bytesOf(sample.file)),
            signal: AbortSignal.timeout(15_000),
          });
          if (!res.ok) {
            request.log.error({ status: res.status }, 'the sandbox refused a sample invoice');
            throw new HttpError(502, 'The sandbox Drive did not take the sample invoices. Press the button again.');
          }
          const file = (await res.json()) as { id: string; name: string };
          added.push({ id: file.id, name: file.name });
        }
        return { folder_id: recipe.folderId, files: added };
      },
    );
    app.get('/api/plugins/sample-data/invoice.pdf', async (_request, reply) =>
      reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${SAMPLE_INVOICE_NAME}"`)
        .header('Cache-Control', 'public, max-age=3600')
        .send(sampleInvoice()),
    );
  },
});
