import {
  defineServerPlugin,
  DocumentExtraction,
  documentOf,
  DOCUMENT_EXTRACTION_JOB,
  extractDocumentFields,
  notSucceeded,
  ownedJob,
  runExtractionJob,
  provide,
  startExtraction,
  storedDocumentExtractor,
  T,
  userOf,
  viewOf,
  type ExtractionJobData,
} from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import { documentExtractionSteps } from './automation-actions';
import extractSchema from '../../schemas/document-extraction/extract.schema.json';
import jobSchema from '../../schemas/document-extraction/job.schema.json';
import { catalogue } from './catalogue';

type Fields = ReturnType<typeof extractDocumentFields>;

const RATE = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const POLL_RATE = { rateLimit: { max: 240, timeWindow: '1 minute' } };

/**
 * Document data extraction: workflow 10006 and its combinations 3 and 4. The spec's three calls
 * run the work as a job on the queue: `extract` (timeout, key, bucket → Job_ID), `status`
 * (jobId → Status IN_PROGRESS | SUCCEEDED | FAILED, with progress and a message) and `complete`
 * (jobId → Fields as label/result pairs, Job_ID, Status, bucket, key). Jobs belong to the caller.
 * The automation engine's flowmatic_ai:extract_document_fields step reads with the same code.
 */
export default defineServerPlugin({
  id: 'document-extraction',
  catalogue,
  contributes: [contribute(WorkflowUploads, { workflow: 10006, kinds: ['pdf', 'png', 'jpeg'] })],
  provides: [
    provide(DocumentExtraction, (get) => storedDocumentExtractor({ files: get(T.FileStore), ocr: get(T.Ocr), events: get(T.EventBus) }, extractDocumentFields)),
  ],
  needs: { queue: T.JobQueue, files: T.FileStore, ocr: T.Ocr, events: T.EventBus, extractor: DocumentExtraction },
  steps: ({ extractor }) => documentExtractionSteps(extractor),
  routes(app, { queue, files }) {
    app.post<{ Body: { timeout: number; key: string; bucket: string } }>(
      '/api/document-extraction/extract',
      { auth: 'user', schema: { body: extractSchema }, config: RATE },
      async (request) => {
        const owner = userOf(request).id;
        const { key, bucket, timeout } = request.body;
        await documentOf(files, owner, bucket, key);
        const Job_ID = await startExtraction(queue, DOCUMENT_EXTRACTION_JOB, { owner, bucket, key }, timeout);
        return { Job_ID, Status: 'IN_PROGRESS', bucket, key };
      },
    );

    app.post<{ Body: { jobId: string } }>(
      '/api/document-extraction/status',
      { auth: 'user', schema: { body: jobSchema }, config: POLL_RATE },
      async (request) => {
        const view = viewOf<Fields>(await ownedJob(queue, request.body.jobId, userOf(request).id, DOCUMENT_EXTRACTION_JOB));
        return { Job_ID: view.Job_ID, Status: view.Status, progress: view.progress, message: view.message };
      },
    );

    app.post<{ Body: { jobId: string } }>(
      '/api/document-extraction/complete',
      { auth: 'user', schema: { body: jobSchema }, config: POLL_RATE },
      async (request) => {
        const view = viewOf<Fields>(await ownedJob(queue, request.body.jobId, userOf(request).id, DOCUMENT_EXTRACTION_JOB));
        if (view.Status !== 'SUCCEEDED' || !view.outcome) throw notSucceeded(view);
        return {
          Fields: view.outcome.result,
          Job_ID: view.Job_ID,
          Status: view.Status,
          bucket: view.data.bucket,
          key: view.data.key,
          name: view.outcome.name,
          pages: view.outcome.pages,
          pages_read: view.outcome.pagesRead ?? view.outcome.pages,
        };
      },
    );
  },
  jobs: {
    [DOCUMENT_EXTRACTION_JOB]: {
      concurrency: 2,
      handler: (data, { files, ocr, events }, job) => runExtractionJob(data as ExtractionJobData, job, { files, ocr, events }, extractDocumentFields),
    },
  },
});
