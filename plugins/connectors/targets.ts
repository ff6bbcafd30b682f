import { sql } from 'kysely';
import { NotConnectedError, PermanentStepError, type Db, type RecipeTemplateSeed } from '../../src/server';
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
  db: Db;
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

/** The Drive folder and Sheet stored on a recipe (user_recipes.folder_id / sheet_id), with the names to give new ones. */
export interface RecipeTargetRow {
  id: number;
  managed_user_id: number;
  combination_id: number;
  folder_id: string | null;
  sheet_id: string | null;
  /** the combination's name: new folders and spreadsheets are named after it */
  combination_name: string;
  recipe: RecipeTemplateSeed | null;
}

export async function targetRow(db: Db, recipeId: number): Promise<RecipeTargetRow | undefined> {
  const { rows } = await sql<RecipeTargetRow>`
    select ur.id, ur.managed_user_id, ur.combination_id, ur.folder_id, ur.sheet_id, coalesce(c.name, ur.name) as combination_name, c.recipe
    from user_recipes ur left join combinations c on c.id = ur.combination_id
    where ur.id = ${recipeId}`.execute(db);
  const r = rows[0];
  if (r && typeof r.recipe === 'string') r.recipe = JSON.parse(r.recipe);
  return r;
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

/** Stores a target unless one was stored meanwhile; answers the one that is stored. */
async function storeIfEmpty(db: Db, recipeId: number, column: 'folder_id' | 'sheet_id', id: string): Promise<string> {
  const res = await db
    .updateTable('user_recipes')
    .set({ [column]: id, updated_at: new Date() })
    .where('id', '=', recipeId)
    .where(column, 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) return id;
  const row = await db.selectFrom('user_recipes').select([column]).where('id', '=', recipeId).executeTakeFirst();
  return (row?.[column] as string | null) ?? id;
}

/** How to find or make one kind of target in the owner's account. */
interface TargetKind {
  column: 'folder_id' | 'sheet_id';
  /** the connection it is made with */
  provider: 'google_drive' | 'google_sheets';
  /** the Drive query finding one the app made before, by name */
  existing(name: string): string;
  create(e: NonNullable<Endpoints['google']>, token: string, name: string, signal?: AbortSignal): Promise<{ id: string }>;
}

const FOLDER: TargetKind = {
  column: 'folder_id',
  provider: 'google_drive',
  existing: (name) => `name = ${quoteQ(name)} and mimeType = '${FOLDER_MIME}' and 'root' in parents and trashed = false`,
  create: (e, token, name, signal) => createDriveFolder(e.driveUrl, token, name, signal),
};

const SHEET: TargetKind = {
  column: 'sheet_id',
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
  const row = await targetRow(s.db, recipe.id);
  if (!row) throw new PermanentStepError('The recipe no longer exists.');
  const stored = row[kind.column];
  if (stored) return { id: stored, created: false };
  const e = googleEndpoints(s);
  const { existing, made } = await withGoogleToken(s, recipe.managedUserId, kind.provider, async (token) => {
    const existing = await listDriveFiles(e.driveUrl, token, kind.existing(row.combination_name), { signal, maxPages: 1 });
    return { existing, made: existing[0] ?? (await kind.create(e, token, row.combination_name, signal)) };
  });
  return { id: await storeIfEmpty(s.db, recipe.id, kind.column, made.id), created: !existing[0] };
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
