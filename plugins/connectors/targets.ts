import { NotConnectedError, PermanentStepError, type RecipeTargetService, type RecipeTemplateSeed } from '../../src/server';
import { createDriveFolder, createSpreadsheet, FOLDER_MIME, GoogleApiError, listDriveFiles, quoteQ, SPREADSHEET_MIME } from './google-api';
import type { Endpoints } from './providers';

/** What the recipe targets need from the running plugin. */
export interface TargetServices {
  connections: {
    accessToken(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }>;
    /** the provider refused a token that had not expired: refresh now (a dead grant marks the connection lost, NotConnectedError) */
    rejected?(managedUserId: number, provider: string): Promise<{ token: string; accountId: string | null }>;
  };
  endpoints: () => Endpoints;
  /** the recipes' stored folder and Sheet (the automation module's user recipes) */
  recipes: RecipeTargetService;
}

/**
 * Google calls with the owner's stored token. A 401 (the grant revoked since the token was
 * issued) renews it at once (ConnectionService.rejected): a dead grant marks the connection lost
 * and throws NotConnectedError, so the screens show it needing reconnect and the trigger's state
 * says why; a live one gets a fresh token and the calls are made once more.
 */
export async function withGoogleToken<R>(s: TargetServices, managedUserId: number, provider: string, calls: (token: string) => Promise<R>): Promise<R> {
  const { token } = await s.connections.accessToken(managedUserId, provider);
  try {
    return await calls(token);
  } catch (e) {
    if (!(e instanceof GoogleApiError && e.status === 401) || !s.connections.rejected) throw e;
    return calls((await s.connections.rejected(managedUserId, provider)).token);
  }
}

/** The recipe a target belongs to: whose it is and which combination it runs. */
export interface TargetRecipe {
  id: number;
  managedUserId: number;
  combinationId: number;
}

/** Which targets a recipe's steps use: a watched folder (the Drive trigger), a Sheet (a Sheets step). */
export function targetNeeds(template: RecipeTemplateSeed | null | undefined): { folder: boolean; sheet: boolean } {
  const steps = template?.steps ?? [];
  return {
    folder: steps.some((s) => s.kind === 'trigger' && s.provider === 'google_drive' && s.action === 'new_file_in_folder'),
    sheet: steps.some((s) => s.kind === 'action' && s.provider === 'google_sheets'),
  };
}

export function googleEndpoints(s: TargetServices): NonNullable<Endpoints['google']> {
  const e = s.endpoints().google;
  if (!e) throw new PermanentStepError('Google is not configured on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or SANDBOX_PROVIDERS=true.');
  return e;
}

/** How to find or make one kind of target in the owner's account. */
interface TargetKind {
  target: 'folder' | 'sheet';
  /** the connection it is made with */
  provider: 'google_drive' | 'google_sheets';
  /** the Drive query finding one the app made before, by name */
  existing(name: string): string;
  create(e: NonNullable<Endpoints['google']>, token: string, name: string, signal?: AbortSignal): Promise<{ id: string }>;
}

const FOLDER: TargetKind = {
  target: 'folder',
  provider: 'google_drive',
  existing: (name) => `name = ${quoteQ(name)} and mimeType = '${FOLDER_MIME}' and 'root' in parents and trashed = false`,
  create: (e, token, name, signal) => createDriveFolder(e.driveUrl, token, name, signal),
};

const SHEET: TargetKind = {
  target: 'sheet',
  provider: 'google_sheets',
  existing: (name) => `name = ${quoteQ(name)} and mimeType = '${SPREADSHEET_MIME}' and trashed = false`,
  create: (e, token, name, signal) => createSpreadsheet(e.sheetsUrl, token, name, signal),
};

/**
 * The recipe's target of a kind, made when it has none: named after the combination, in the
 * owner's account; one the app made before with that name is taken again, so a retry after a
 * crash never makes a second one.
 */
async function ensureTarget(s: TargetServices, recipe: TargetRecipe, kind: TargetKind, signal?: AbortSignal): Promise<{ id: string; created: boolean }> {
  const row = await s.recipes.targets(recipe.id);
  if (!row) throw new PermanentStepError('The recipe no longer exists.');
  const stored = kind.target === 'folder' ? row.folderId : row.sheetId;
  if (stored) return { id: stored, created: false };
  const e = googleEndpoints(s);
  const { existing, made } = await withGoogleToken(s, recipe.managedUserId, kind.provider, async (token) => {
    const existing = await listDriveFiles(e.driveUrl, token, kind.existing(row.combinationName), { signal, maxPages: 1 });
    return { existing, made: existing[0] ?? (await kind.create(e, token, row.combinationName, signal)) };
  });
  return { id: await s.recipes.storeTargetIfEmpty(recipe.id, kind.target, made.id), created: !existing[0] };
}

/** The recipe's watched Drive folder (in the root of the owner's Drive), created when it has none. */
export function ensureFolder(s: TargetServices, recipe: TargetRecipe, signal?: AbortSignal): Promise<{ id: string; created: boolean }> {
  return ensureTarget(s, recipe, FOLDER, signal);
}

/** The recipe's Google Sheet, created when it has none. */
export function ensureSheet(s: TargetServices, recipe: TargetRecipe, signal?: AbortSignal): Promise<{ id: string; created: boolean }> {
  return ensureTarget(s, recipe, SHEET, signal);
}

/**
 * Prepares what a recipe's steps need in the owner's Google account: the watched folder and the
 * Sheet, each named after the combination. A connector that is not connected yet is skipped
 * (reported in `skipped`); the step that needs it creates it later, or the user picks one.
 */
export async function prepareTargets(s: TargetServices, recipe: TargetRecipe, template: RecipeTemplateSeed | null | undefined, signal?: AbortSignal) {
  const needs = targetNeeds(template);
  const prepared: string[] = [];
  const skipped: string[] = [];
  const attempt = async (what: string, fn: () => Promise<{ created: boolean }>) => {
    try {
      const r = await fn();
      prepared.push(`${what}${r.created ? ' created' : ''}`);
    } catch (e) {
      if (!(e instanceof NotConnectedError)) throw e;
      skipped.push(`${what}: ${e.message}`);
    }
  };
  if (needs.folder) await attempt('Google Drive folder', () => ensureFolder(s, recipe, signal));
  if (needs.sheet) await attempt('Google Sheet', () => ensureSheet(s, recipe, signal));
  return { prepared, skipped };
}
