import type { Combination, UserRecipeRecord } from '../../../src/core/domain';
import type { EngineRecipe, JobStep, JobSummary } from '../../../plugins/automation-views/automation-api';
import { cataloguePlugins, combination as catalogueCombination, record, WORKATO_ID, CONNECTIONS, RECIPES, type RouteTable } from '../catalogue/harness';
import { testShell, type TestShell } from '../../support/render';
import type { FakeCall } from '../../support/fake-fetch';

export { WORKATO_ID, CONNECTIONS, RECIPES, record };

export const STARTER_ID = 9000;
export const WEBHOOK = (combinationId: number) => `http://127.0.0.1:3000/api/automation/webhooks/tok${combinationId}`;

const conn = (id: number, name: string, provider: string, order: number) => ({ id, name, icon: provider, order, provider });

/** The seeded combinations the setup views are shown for, as the server sends them. */
export const COMBINATIONS: Record<number, Combination> = {
  1: catalogueCombination(1, {
    name: 'Google Drive Invoices to Google Sheets',
    starter_recipe: true,
    triggers: [{ id: 1, name: 'New file in a Google Drive folder', icon: 'google_drive' }],
    connectors: [conn(1, 'Google Drive', 'google_drive', 1), conn(6, 'Flowmatic AI', 'flowmatic_ai', 2), conn(2, 'Google Sheets', 'google_sheets', 3)],
  }),
  8: catalogueCombination(8, {
    name: 'E-mailed Invoices to Google Sheets',
    triggers: [{ id: 2, name: 'New e-mail with attachments', icon: 'manual_email' }],
    connectors: [conn(2, 'Google Sheets', 'google_sheets', 3), conn(5, 'Email', 'manual_email', 1), conn(6, 'Flowmatic AI', 'flowmatic_ai', 2)],
  }),
  2: catalogueCombination(2, {
    name: 'Invoice Data Extraction (basic)',
    starter_recipe: true,
    completes_on_start: true,
    triggers: [{ id: 3, name: 'File uploaded in Flowmatic', icon: 'manual_upload' }],
    connectors: [conn(4, 'Manual upload', 'manual_upload', 1), conn(6, 'Flowmatic AI', 'flowmatic_ai', 2)],
  }),
};

export const RECIPE_NAMES: Record<number, string> = {
  1: 'Invoice Extraction from Google Drive to Google Sheets',
  8: 'Invoice Extraction from E-mail to Google Sheets',
  2: 'Invoice Data Extraction Basic',
};

const STEPS: Record<number, EngineRecipe['steps']> = {
  1: [
    { index: 0, kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder', name: 'google_drive:new_file_in_folder', installed: false },
    { index: 1, kind: 'action', provider: 'google_drive', action: 'download_file', name: 'google_drive:download_file', installed: false },
    { index: 2, kind: 'action', provider: 'flowmatic_ai', action: 'extract_invoice_fields', name: 'flowmatic_ai:extract_invoice_fields', installed: false },
    { index: 3, kind: 'action', provider: 'google_sheets', action: 'append_row', name: 'google_sheets:append_row', installed: false },
  ],
  8: [
    { index: 0, kind: 'trigger', provider: 'manual_email', action: 'email_received', name: 'E-mail received', installed: true },
    { index: 1, kind: 'action', provider: 'flowmatic_ai', action: 'extract_invoice_fields', name: 'flowmatic_ai:extract_invoice_fields', installed: false },
    { index: 2, kind: 'action', provider: 'google_sheets', action: 'append_row', name: 'google_sheets:append_row', installed: false },
  ],
  2: [
    { index: 0, kind: 'trigger', provider: 'manual_upload', action: 'file_uploaded', name: 'File uploaded', installed: true },
    { index: 1, kind: 'action', provider: 'flowmatic_ai', action: 'extract_invoice_fields', name: 'Extract invoice fields', installed: true },
  ],
};

export const recipeIdOf = (combinationId: number) => 5000 + combinationId;

export function job(id: string, fields: Partial<JobSummary> = {}): JobSummary {
  return {
    id,
    recipe_id: 5008,
    combination_id: 8,
    status: 'succeeded',
    title: 'Invoice Extraction from E-mail to Google Sheets',
    trigger_summary: `Webhook call ${id}`,
    created_at: '2026-11-22T10:00:00.000Z',
    started_at: '2026-11-22T10:00:00.000Z',
    completed_at: '2026-11-22T10:00:01.250Z',
    duration_ms: 1250,
    attempt: 1,
    error: null,
    ...fields,
  };
}

export function step(index: number, fields: Partial<JobStep> = {}): JobStep {
  return {
    index,
    provider: 'flowmatic',
    action: 'transform',
    name: `Step ${index}`,
    status: 'succeeded',
    input_summary: null,
    output_summary: null,
    error: null,
    attempts: 1,
    started_at: '2026-11-22T10:00:00.000Z',
    completed_at: '2026-11-22T10:00:00.500Z',
    ...fields,
  };
}

export interface Scenario {
  combinationId: number;
  status?: UserRecipeRecord['status'];
  running?: boolean;
  connections?: Array<{ id: number; name: string; provider: string; authorization_status: string | null }>;
  jobs?: JobSummary[];
  steps?: EngineRecipe['steps'];
  extra?: RouteTable;
  timeZone?: string;
}

/** A logged-in shell whose fake API answers one combination's setup screen. */
export function setupShell(
  sc: Scenario,
): TestShell & { state: { running: boolean; status: UserRecipeRecord['status'] }; calls: (m: string, p: string) => FakeCall[] } {
  const id = sc.combinationId;
  const rid = recipeIdOf(id);
  const state = { running: sc.running ?? false, status: sc.status ?? 'complete' };
  const records = () => [
    record(id, { recipe_id: rid, name: RECIPE_NAMES[id], status: state.status, workato_webhook: WEBHOOK(id), job_succeeded_count: 2, job_failed_count: 1 }),
    record(0, { recipe_id: STARTER_ID, combination: 0, name: 'Starter', status: 'complete', workato_webhook: WEBHOOK(0) }),
  ];
  const routes: RouteTable = {
    [`GET /api/platform/combination/${id}/`]: { body: { ...COMBINATIONS[id], recipe_id: rid } },
    [RECIPES]: () => ({ body: { workato_recipes: records() } }),
    [CONNECTIONS]: { body: { result: sc.connections ?? [] } },
    [`GET /api/platform/proxy?url=api/managed_users/${WORKATO_ID}/recipes/${rid}`]: () => ({
      body: { id: rid, running: state.running, job_succeeded_count: 2, job_failed_count: 1 },
    }),
    [`GET /api/automation/recipes/${rid}`]: () => ({
      body: {
        recipe: {
          id: rid,
          combination_id: id,
          name: RECIPE_NAMES[id],
          status: state.status,
          running: state.running,
          job_succeeded_count: 2,
          job_failed_count: 1,
          webhook_url: WEBHOOK(id),
          inbound_email: `recipe-${rid}@inbound.test`,
          steps: sc.steps ?? STEPS[id],
        },
      },
    }),
    [`GET /api/automation/recipes/${rid}/jobs?limit=50`]: { body: { jobs: sc.jobs ?? [] } },
    'GET /api/platform/userId': { body: { userID: 1001, workato_id: WORKATO_ID, is_verify: true, time_zone: '', email: 'grace@example.com' } },
    'PUT /api/platform/proxy': (call) => {
      const url = String((call.body as { url: string }).url);
      state.running = url.endsWith('/start');
      if (state.running && state.status === 'ready') state.status = 'complete';
      return { body: { success: true, running: state.running } };
    },
    [`POST /api/automation/webhooks/tok${id}`]: { body: { status: 'ok' } },
    ...sc.extra,
  };
  const shell = testShell({ loggedIn: true, plugins: cataloguePlugins, routes });
  if (sc.timeZone) shell.storage.setItem('time_zone', sc.timeZone);
  return Object.assign(shell, { state, calls: (m: string, p: string) => shell.fetch.calls.filter((c) => c.method === m && c.path === p) });
}
