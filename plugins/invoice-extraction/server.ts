import {
  defineServerPlugin,
  documentOf,
  DOCUMENT_EXTRACTION_JOB,
  extractDocumentFields,
  extractInvoiceFromDocument,
  HttpError,
  INVOICE_EXTRACTION_JOB,
  INVOICE_KINDS,
  InvoiceExtraction,
  notSucceeded,
  ownedJob,
  renderFirstPagePng,
  runExtractionJob,
  provide,
  startExtraction,
  storedDocumentExtractor,
  T,
  userOf,
  viewOf,
  waitForJob,
  xmlPdfFirstPage,
  type ExtractionJobData,
  type FileStore,
  type InvoiceExtractionService,
  type JobQueue,
  type StoredDocumentExtractor,
} from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import extractDataSchema from '../../schemas/invoice-extraction/extract-data.schema.json';
import jobSchema from '../../schemas/invoice-extraction/job.schema.json';
import previewQuerySchema from '../../schemas/invoice-extraction/preview-query.schema.json';
import { invoiceExtractionSteps } from './automation-actions';
import { catalogue } from './catalogue';
import { invoiceReply, type InvoiceExtraction as InvoiceResult } from './invoice-reply';

type DocumentFields = ReturnType<typeof extractDocumentFields>;

/** The preview call's answer for an XML e-invoice that carries no PDF. */
export const XML_NO_PREVIEW_MESSAGE = 'This XML e-invoice carries no PDF: it has no page to show, its data is the invoice.';

/** Resolution of the invoice preview image: enough to read an A4 page on screen, ~830 px wide. */
const PREVIEW_DPI = 100;

/**
 * The InvoiceExtraction service: the direct reader the engine's step uses, and the page's
 * extract_data call (the job queued, waited for up to `wait` seconds, and answered as the page
 * shows it: the invoice's fields, a document's Fields for workflow 10006, or the job's progress
 * with status 202).
 */
export function invoiceExtractionService(deps: {
  queue: JobQueue;
  files: FileStore;
  direct: StoredDocumentExtractor<InvoiceResult>;
}): InvoiceExtractionService {
  const { queue, files } = deps;
  return {
    kinds: deps.direct.kinds,
    extract: (owner, file, opts) => deps.direct.extract(owner, file, opts),
    async extractData(owner, { key, bucket, wait, workflow }) {
      const isDocument = String(workflow) === '10006';
      const jobName = isDocument ? DOCUMENT_EXTRACTION_JOB : INVOICE_EXTRACTION_JOB;
      await documentOf(files, owner, bucket, key, isDocument ? undefined : INVOICE_KINDS);
      const jobId = await startExtraction(queue, jobName, { owner, bucket, key });
      if (wait > 0) await waitForJob(queue, jobId, wait * 1000);
      const job = await ownedJob(queue, jobId, owner, jobName);
      if (isDocument) {
        const view = viewOf<DocumentFields>(job);
        if (view.Status === 'FAILED') throw notSucceeded(view);
        if (view.Status === 'IN_PROGRESS' || !view.outcome)
          return { status: 202, body: { Status: view.Status, Job_ID: view.Job_ID, progress: view.progress, message: view.message } };
        return { status: 200, body: { Fields: view.outcome.result, Job_ID: view.Job_ID, Status: view.Status, bucket, key } };
      }
      const view = viewOf<InvoiceResult>(job);
      if (view.Status === 'FAILED') throw notSucceeded(view);
      const body = invoiceReply(view);
      return { status: body.Status === 'IN_PROGRESS' ? 202 : 200, body: { ...body } };
    },
  };
}

/**
 * Invoice data extraction: workflow 10004 and its combinations 1, 2, 8 and 9.
 *
 * POST /api/service/extract_data/ (key, bucket → the invoice's fields, line items and
 * warnings). The spec's call is synchronous; the work is not done in the request: it queues a
 * job and waits for it up to `wait` seconds (default 30). A job still running by then is
 * answered 202 with its Job_ID, which POST /api/plugins/invoice-extraction/status follows (the
 * page sends wait 0 and polls, to show progress). `workflow: 10006` answers document Fields.
 * GET /api/plugins/invoice-extraction/preview?key&bucket is the uploaded image, or a PDF's first
 * page as a PNG, for its owner only. The automation engine's flowmatic_ai:extract_invoice_fields
 * step reads with the same job code. Besides PDF, PNG and JPEG, an XML e-invoice (XRechnung,
 * Peppol UBL, Factur-X / ZUGFeRD CII) is taken: its data is the invoice, and the PDF it may
 * carry is its preview and is compared with the data.
 */
export default defineServerPlugin({
  id: 'invoice-extraction',
  catalogue,
  contributes: [contribute(WorkflowUploads, { workflow: 10004, kinds: INVOICE_KINDS })],
  provides: [
    provide(InvoiceExtraction, (get) =>
      invoiceExtractionService({
        queue: get(T.JobQueue),
        files: get(T.FileStore),
        direct: storedDocumentExtractor(
          { files: get(T.FileStore), ocr: get(T.Ocr), events: get(T.EventBus), kinds: INVOICE_KINDS },
          extractInvoiceFromDocument,
        ),
      }),
    ),
  ],
  needs: { queue: T.JobQueue, files: T.FileStore, ocr: T.Ocr, events: T.EventBus, extractor: InvoiceExtraction },
  steps: ({ extractor }) => invoiceExtractionSteps(extractor),
  routes(app, { queue, files, extractor }) {
    app.post<{ Body: { key: string; bucket: string; wait: number; workflow: number | string } }>(
      '/api/service/extract_data/',
      { auth: 'user', schema: { body: extractDataSchema }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const answer = await extractor.extractData(userOf(request).id, request.body);
        return reply.code(answer.status).send(answer.body);
      },
    );

    app.post<{ Body: { jobId: string } }>(
      '/api/plugins/invoice-extraction/status',
      { auth: 'user', schema: { body: jobSchema }, config: { rateLimit: { max: 240, timeWindow: '1 minute' } } },
      async (request) => {
        const view = viewOf<InvoiceResult>(await ownedJob(queue, request.body.jobId, userOf(request).id, INVOICE_EXTRACTION_JOB));
        if (view.Status === 'FAILED') throw notSucceeded(view);
        return invoiceReply(view);
      },
    );

    app.get<{ Querystring: { key: string; bucket: string } }>(
      '/api/plugins/invoice-extraction/preview',
      { auth: 'user', schema: { querystring: previewQuerySchema }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const owner = userOf(request).id;
        const { key, bucket } = request.query;
        const meta = await documentOf(files, owner, bucket, key, INVOICE_KINDS);
        let image: Buffer;
        let type: string;
        if (meta.kind === 'pdf' || meta.kind === 'xml') {
          try {
            const bytes = await files.read(owner, bucket, key);
            // an XML e-invoice shows the first page of the PDF it carries, when it carries one
            const page = meta.kind === 'pdf' ? await renderFirstPagePng(bytes, PREVIEW_DPI) : await xmlPdfFirstPage(bytes, meta.originalName, PREVIEW_DPI);
            if (!page) throw new HttpError(415, XML_NO_PREVIEW_MESSAGE);
            image = page.png;
          } catch (error) {
            const e = error as Error;
            if (e.name === 'DocumentReadError')
              throw new HttpError(422, `The first page of the ${meta.kind === 'pdf' ? 'PDF' : 'e-invoice'} could not be shown: ${e.message}`);
            throw error;
          }
          type = 'image/png';
        } else {
          image = await files.read(owner, bucket, key);
          type = meta.mime;
        }
        return reply
          .header('Content-Type', type)
          .header('Cache-Control', 'private, max-age=600')
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          .send(image);
      },
    );
  },
  onStart({ queue, files, ocr, events }) {
    // Registered here rather than under `jobs`, whose handlers are not given the job's progress reporter.
    queue.process(
      INVOICE_EXTRACTION_JOB,
      (data, job) => runExtractionJob<InvoiceResult>(data as ExtractionJobData, job, { files, ocr, events, kinds: INVOICE_KINDS }, extractInvoiceFromDocument),
      { concurrency: 2 },
    );
  },
});
