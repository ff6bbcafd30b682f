/**
 * The calls the setup screens make (spec section 7 and the engine's jobs API), typed, in one
 * place. Each function takes the API client, so tests answer them with a fake fetch.
 */
import type { useApi } from '../../src/app';
import type { Combination, JobStepView, JobView, ProviderConnection, ProviderRecipe, UserIdReply, UserRecipeRecord } from '../../src/core';
import type { EngineStep, SetupCallBody } from './setup-rules';
import { webhookPath } from './setup-rules';

export type Api = ReturnType<typeof useApi>;

/** GET /api/automation/recipes/:id → recipe */
export interface EngineRecipe {
  id: number;
  combination_id: number;
  name: string;
  status: UserRecipeRecord['status'];
  running: boolean;
  job_succeeded_count: number;
  job_failed_count: number;
  webhook_url: string | null;
  inbound_email: string | null;
  steps: EngineStep[];
}

/** One job as the jobs list shows it: the server's JobView (schemas/automation/job-view.schema.json). */
export type JobSummary = JobView;
export type JobStatus = JobView['status'];

/** One step of a job (step 0 is the trigger): the server's StepView (schemas/automation/job-step-view.schema.json). */
export type JobStep = JobStepView;
export type StepStatus = JobStepView['status'];

export const combinationOf = (api: Api, id: number) => api.get<Combination>(`/api/platform/combination/${id}/`);

/** The user's recipe records (created by the engine the first time). */
export const recordsOf = (api: Api, workatoId: number) =>
  api
    .get<{ workato_recipes?: UserRecipeRecord[] }>(`/api/platform/userByWorkatoRecipe/${workatoId}/`)
    .then((r) => (Array.isArray(r?.workato_recipes) ? r.workato_recipes : []));

export const connectionsOf = (api: Api, workatoId: number) =>
  api
    .get<{ result?: ProviderConnection[] }>(`/api/platform/proxy?url=api/managed_users/${workatoId}/connections`)
    .then((r) => (Array.isArray(r?.result) ? r.result : []));

export const providerRecipeOf = (api: Api, workatoId: number, recipeId: number) =>
  api.get<ProviderRecipe>(`/api/platform/proxy?url=api/managed_users/${workatoId}/recipes/${recipeId}`);

/** Starts or stops a managed recipe through the proxy. */
export const setRunning = (api: Api, workatoId: number, recipeId: number, run: boolean) =>
  api.put<{ success: boolean; running: boolean }>('/api/platform/proxy', {
    url: `api/managed_users/${workatoId}/recipes/${recipeId}/${run ? 'start' : 'stop'}`,
  });

export const engineRecipeOf = (api: Api, recipeId: number) => api.get<{ recipe: EngineRecipe }>(`/api/automation/recipes/${recipeId}`).then((r) => r.recipe);

export const jobsOf = (api: Api, recipeId: number, limit = 50) =>
  api.get<{ jobs?: JobSummary[] }>(`/api/automation/recipes/${recipeId}/jobs?limit=${limit}`).then((r) => r.jobs ?? []);

export const jobOf = (api: Api, jobId: string) => api.get<{ job: JobSummary; steps: JobStep[] }>(`/api/automation/jobs/${encodeURIComponent(jobId)}`);

export const retryJob = (api: Api, jobId: string) => api.post<{ status: string; job: JobSummary }>(`/api/automation/jobs/${encodeURIComponent(jobId)}/retry`);

export const rerunJob = (api: Api, jobId: string) => api.post<{ status: string; job_id: string }>(`/api/automation/jobs/${encodeURIComponent(jobId)}/rerun`);

/** The manual_upload trigger: a file (multipart) or text (JSON) runs the recipe. */
export function uploadToRecipe(api: Api, recipeId: number, input: { file?: File; text?: string }) {
  const path = `/api/automation/recipes/${recipeId}/uploads`;
  if (input.file) {
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    if (input.text) form.append('text', input.text);
    return api.upload<{ status: string; job_id: string }>(path, form);
  }
  return api.post<{ status: string; job_id: string }>(path, { text: input.text ?? '' });
}

/** GET /api/automation/recipes/:id/trigger-health: whether the recipe's trigger can listen, and why not. */
export interface TriggerHealth {
  trigger: string;
  working: boolean;
  reason: string | null;
}

export const triggerHealthOf = (api: Api, recipeId: number) =>
  api.get<{ health: TriggerHealth }>(`/api/automation/recipes/${recipeId}/trigger-health`).then((r) => r.health);

/**
 * GET /api/automation/recipes/:id/waiting: what a polled trigger holds for the user's choice: files that
 * arrived while the recipe was stopped, and files already in the folder when it first started watching.
 */
export interface WaitingItem {
  key: string;
  name: string | null;
  summary: string;
  seen_at: string;
  /** why it waits (absent from an older server: arrived while stopped) */
  why?: 'arrived_while_stopped' | 'already_there';
}

export const waitingOf = (api: Api, recipeId: number) =>
  api.get<{ trigger: string | null; count: number; items: WaitingItem[] }>(`/api/automation/recipes/${recipeId}/waiting`);

/** The user's choice for the waiting items: process them now (the recipe must run) or skip them for good. */
export const releaseWaiting = (api: Api, recipeId: number, choice: 'process' | 'skip') =>
  api.post<{ status: string; processed?: number; started?: number; skipped?: number }>(`/api/automation/recipes/${recipeId}/waiting/${choice}`);

export const whoAmI = (api: Api) => api.get<UserIdReply>('/api/platform/userId');

/** The setup call to the record's webhook (no login: the address is the secret). */
export const postSetupCall = (api: Api, webhook: string, body: SetupCallBody) =>
  api.post<{ status?: string; message?: string }>(webhookPath(webhook), body, { auth: false });
