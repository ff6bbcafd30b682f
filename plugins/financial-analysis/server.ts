import {
  ConfigStore,
  FinancialAnalysis,
  T,
  badRequest,
  base64BodyLimit,
  configTableMigration,
  decodeBase64File,
  defineServerPlugin,
  notFound,
  provide,
  readConfigJson,
  registerConfigRoutes,
  userOf,
  type FileStore,
  type FinancialAnalysisService,
  type JobQueue,
} from '../../src/server';
import { contribute, WorkflowUploads } from '../../src/server';
import { financialAnalysisService, financialAnalysisSteps } from './automation-actions';
import completeRequestSchema from '../../schemas/financial-analysis/complete-request.schema.json';
import configRequestSchema from '../../schemas/financial-analysis/config-request.schema.json';
import configSchema from '../../schemas/financial-analysis/config.schema.json';
import startRequestSchema from '../../schemas/financial-analysis/start-comparison-request.schema.json';
import { AnalysisRuns, runsMigration } from './analysis-runs';
import { catalogue } from './catalogue';
import { analyseStatement, isFocusArea, type FocusArea } from './engine/analysis';
import { readStatementFile, type StatementKind } from './statement-file';

export const FINANCIAL_ANALYSIS_COMBINATION = 11;
export const CONFIG_PATH = '/api/platform/financialAnalysisConfig';
export const CONFIG_TABLE = 'financial_analysis_configs';
export const ANALYSE_JOB = 'financial-analysis.analyse';
/** The focus area of the "default" analysis run next to the saved one. */
export const DEFAULT_FOCUS_AREA: FocusArea = 'overall-financial-position';
const FILE_BUCKET = 'financial-analysis';

/** What one analysis job is given: where the statement is stored and the focus area. */
export interface AnalyseJobData {
  owner: number;
  bucket: string;
  key: string;
  fileName: string;
  kind: StatementKind;
  focusArea: FocusArea;
}

type StartBody = Parameters<FinancialAnalysisService['startComparison']>[1];

/**
 * The FinancialAnalysis service: the direct analysis the engine's step uses, and the page's calls
 * (the test's start, stored under a wf_id with its two jobs, its state, and the focus area saved
 * as the config form saves it).
 */
export function financialAnalysisPages(
  analysis: Pick<FinancialAnalysisService, 'analyse' | 'focusAreas'>,
  deps: { store: ConfigStore; runs: AnalysisRuns; queue: JobQueue; files: FileStore; maxUploadBytes: number },
): FinancialAnalysisService {
  const { store, runs, queue, files } = deps;
  return {
    analyse: (owner, file, focusArea) => analysis.analyse(owner, file, focusArea),
    focusAreas: analysis.focusAreas,
    async startComparison(owner, body) {
      if (body.combination_id !== FINANCIAL_ANALYSIS_COMBINATION)
        throw badRequest(`The analysis belongs to combination ${FINANCIAL_ANALYSIS_COMBINATION}, not ${body.combination_id}.`);
      const saved = await store.forCombination(owner, FINANCIAL_ANALYSIS_COMBINATION);
      const focusArea = saved?.config.SELECTED_FOCUS_AREA;
      if (!isFocusArea(focusArea)) throw badRequest('Save a focus area first: the test uses the saved config.');
      const bytes = decodeBase64File(body.file_name, body.file_binary, deps.maxUploadBytes);
      const stored = await files.put(owner, bytes, {
        originalName: body.file_name,
        allowed: ['csv', 'xlsx', 'pdf'],
        maxBytes: deps.maxUploadBytes,
        bucket: FILE_BUCKET,
      });
      const job = (area: FocusArea): AnalyseJobData => ({
        owner,
        bucket: stored.bucket,
        key: stored.key,
        fileName: body.file_name,
        kind: stored.kind as StatementKind,
        focusArea: area,
      });
      // reading a file gives the same answer every time: one try, so a bad file fails at once
      const customJobId = await queue.add(ANALYSE_JOB, job(focusArea), { attempts: 1 });
      const defaultJobId = body.default === false ? null : await queue.add(ANALYSE_JOB, job(DEFAULT_FOCUS_AREA), { attempts: 1 });
      const wfId = runs.newId();
      await runs.save({
        wf_id: wfId,
        user_id: owner,
        combination_id: FINANCIAL_ANALYSIS_COMBINATION,
        file_name: body.file_name,
        default_job_id: defaultJobId,
        custom_job_id: customJobId,
      });
      return { jobId: { wf_id: wfId }, status: 'RUNNING', message: `Analysing "${body.file_name}".` };
    },
    async complete(owner, wfId) {
      const run = await runs.find(owner, wfId);
      if (!run) throw notFound('This analysis was not found.');
      return runs.state(run);
    },
    async saveConfig(owner, config) {
      await store.save(owner, FINANCIAL_ANALYSIS_COMBINATION, readConfigJson(JSON.stringify(config), configSchema));
    },
  };
}

/**
 * Financial analysis reports: workflow 10013 and combination 11. The focus area is a saved
 * config (SELECTED_FOCUS_AREA); a test stores the statement and starts two jobs on the queue,
 * the default analysis and the saved focus area's, polled through /api/financial-analysis/complete/.
 * The automation engine's flowmatic_ai:analyse_financials step runs the same analysis.
 */
export default defineServerPlugin({
  id: 'financial-analysis',
  catalogue,
  contributes: [contribute(WorkflowUploads, { workflow: 10013, kinds: ['csv', 'xlsx', 'pdf'] })],
  provides: [
    provide(FinancialAnalysis, (get) => {
      const store = new ConfigStore(get(T.Db), CONFIG_TABLE);
      const direct = financialAnalysisService({
        store,
        text: get(T.TextGenerator),
        ocr: get(T.Ocr),
        combinationId: FINANCIAL_ANALYSIS_COMBINATION,
        defaultFocusArea: DEFAULT_FOCUS_AREA,
      });
      return financialAnalysisPages(direct, {
        store,
        runs: new AnalysisRuns(get(T.Db), get(T.JobQueue)),
        queue: get(T.JobQueue),
        files: get(T.FileStore),
        maxUploadBytes: get(T.ServerConfig).maxUploadBytes,
      });
    }),
  ],
  needs: { db: T.Db, text: T.TextGenerator, config: T.ServerConfig, files: T.FileStore, ocr: T.Ocr, analysis: FinancialAnalysis },
  steps: ({ analysis }) => financialAnalysisSteps(analysis),
  migrations: [configTableMigration('financial-analysis/0001_configs', CONFIG_TABLE), runsMigration],
  routes(app, { db, config, analysis }) {
    const store = new ConfigStore(db, CONFIG_TABLE);
    registerConfigRoutes(app, { path: CONFIG_PATH, store, configSchema, requestSchema: configRequestSchema, combinations: [FINANCIAL_ANALYSIS_COMBINATION] });

    app.post<{ Body: StartBody }>(
      '/api/platform/financial_analysis/start_comparison',
      {
        auth: 'user',
        bodyLimit: base64BodyLimit(1, config.maxUploadBytes),
        schema: { body: startRequestSchema },
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (request) => analysis.startComparison(userOf(request).id, request.body),
    );

    app.post<{ Body: { jobId?: { wf_id: string }; wf_id?: string } }>(
      '/api/financial-analysis/complete/',
      { auth: 'user', schema: { body: completeRequestSchema } },
      async (request) => analysis.complete(userOf(request).id, request.body.jobId?.wf_id ?? request.body.wf_id!),
    );
  },
  jobs: {
    [ANALYSE_JOB]: {
      concurrency: 2,
      handler: async (data: AnalyseJobData, { files, ocr, text }) => {
        const bytes = await files.read(data.owner, data.bucket, data.key);
        const statement = await readStatementFile(data.fileName, data.kind, bytes, ocr);
        return analyseStatement(statement, data.focusArea, text);
      },
    },
  },
});
