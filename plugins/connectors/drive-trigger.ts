import { NotConnectedError, type PolledEvent, type PolledTriggerDefinition, type RecipeRow } from '../../src/server';
import driveFilePayload from '../../schemas/automation/webhook-payloads/google-drive-file.schema.json';
import { FOLDER_MIME, listDriveFiles, quoteQ, type DriveFile } from './google-api';
import { ensureFolder, ensureSheet, googleEndpoints, prepareTargets, targetNeeds, withGoogleToken, type TargetServices } from './targets';

/**
 * Files whose createdTime is at most this much older than the newest one seen are checked again
 * by id: Drive lists a new file a little late at times, with its own (earlier) createdTime.
 */
export const OVERLAP_MS = 5 * 60_000;
/** At most this many ids are kept in the cursor. */
const MAX_SEEN = 2000;

/** Where the Drive trigger stopped: the folder it watches, the newest createdTime seen, the recent ids. */
export interface DriveCursor {
  folder: string;
  /** ISO time: files created after it (less the overlap) are looked at */
  since: string;
  /** file id → createdTime of the files seen within the overlap window */
  seen: Record<string, string>;
}

export interface DriveTriggerServices extends TargetServices {
  pollIntervalMs: number;
}

function parseCursor(cursor: string): DriveCursor | undefined {
  try {
    const c = JSON.parse(cursor) as DriveCursor;
    return typeof c.folder === 'string' && typeof c.since === 'string' && c.seen && typeof c.seen === 'object' ? c : undefined;
  } catch {
    return undefined;
  }
}

const time = (f: DriveFile) => Date.parse(f.createdTime ?? '') || 0;

/** The trigger's files.list query: the files (not folders) in `folder` created after `afterMs`. */
export function filesQuery(folder: string, afterMs: number): string {
  return `${quoteQ(folder)} in parents and trashed = false and mimeType != '${FOLDER_MIME}' and createdTime > '${new Date(afterMs).toISOString()}'`;
}

/** The query for the files (not folders) already in `folder`, whenever they were made. */
export function presentQuery(folder: string): string {
  return `${quoteQ(folder)} in parents and trashed = false and mimeType != '${FOLDER_MIME}'`;
}

/** At most this many files already in a folder are offered (Drive's 10 pages of 100, oldest first). */
export const MAX_PRESENT = 1000;

/** A file as the item it makes: its job's trigger data and the job list's line. */
function eventOf(f: DriveFile, folder: string): PolledEvent {
  return {
    key: f.id,
    data: { file_id: f.id, name: f.name, mime_type: f.mimeType, created_time: f.createdTime ?? null, folder_id: folder },
    summary: `New file "${f.name.slice(0, 80)}" in Google Drive`,
  };
}

/** The cursor after a look at the folder: `since` moves to the newest file, `seen` keeps the window. */
export function advance(cursor: DriveCursor, files: DriveFile[]): DriveCursor {
  const newest = Math.max(Date.parse(cursor.since) || 0, ...files.map(time));
  const seen: Record<string, string> = {};
  const all = [...Object.entries(cursor.seen).map(([id, t]) => ({ id, t: Date.parse(t) || 0 })), ...files.map((f) => ({ id: f.id, t: time(f) }))];
  for (const { id, t } of all.sort((a, b) => b.t - a.t).slice(0, MAX_SEEN)) if (t > newest - OVERLAP_MS) seen[id] = new Date(t).toISOString();
  return { folder: cursor.folder, since: new Date(newest).toISOString(), seen };
}

/**
 * google_drive:new_file_in_folder — the Drive trigger of combinations 1, 4, 5 and 6. While the
 * recipe runs, the engine polls it every DRIVE_POLL_INTERVAL_MS: files.list on the recipe's
 * folder (its parent), files created after the cursor, with the owner's own Drive connection
 * (refreshed as needed). Each new file starts one job with its `file_id`, which the 'download
 * file' step fetches. Starting the recipe creates its folder (named after the combination) when
 * it has none, and its Sheet when a step writes to one.
 *
 * Files already in the folder when the recipe first starts watching it (put there after setup
 * made the folder, or in a folder the user chose that already held files; up to MAX_PRESENT,
 * oldest first) are not run by themselves: they are returned as `present`, and the engine offers
 * them on the setup screen ("2 files are already in the folder: Process them / Skip"). Choosing
 * another folder while the recipe runs offers that folder's files the same way and watches it
 * from then on.
 */
export function driveNewFileTrigger(services: () => DriveTriggerServices | undefined): PolledTriggerDefinition {
  const started = (): DriveTriggerServices => {
    const s = services();
    if (!s) throw new Error('The connectors plugin has not started yet, so the Google Drive trigger cannot look at the folder.');
    return s;
  };
  /** The first cursor of a folder (watching from now on) and the files already in it. */
  const baseline = async (
    s: DriveTriggerServices,
    recipe: RecipeRow,
    folder: string,
    signal: AbortSignal,
  ): Promise<{ cursor: string; present: PolledEvent[] }> => {
    const e = googleEndpoints(s);
    const now = Date.now();
    const there = await withGoogleToken(s, recipe.managedUserId, 'google_drive', (token) =>
      listDriveFiles(e.driveUrl, token, presentQuery(folder), { orderBy: 'createdTime', signal, maxPages: MAX_PRESENT / 100 }),
    );
    const files = there.filter((f) => f.mimeType !== FOLDER_MIME).sort((a, b) => time(a) - time(b));
    return {
      cursor: JSON.stringify(advance({ folder, since: new Date(now).toISOString(), seen: {} }, files)),
      present: files.slice(0, MAX_PRESENT).map((f) => eventOf(f, folder)),
    };
  };
  return {
    provider: 'google_drive',
    action: 'new_file_in_folder',
    name: 'New file in a Google Drive folder',
    payload: driveFilePayload as PolledTriggerDefinition['payload'],
    intervalMs: () => services()?.pollIntervalMs ?? 60_000,
    async activate(recipe, { signal }) {
      const s = started();
      await prepareTargets(s, recipe, recipe.template, signal);
      const { id } = await ensureFolder(s, recipe, signal);
      return baseline(s, recipe, id, signal);
    },
    async poll({ recipe, cursor, signal, log }) {
      const s = started();
      const row = await s.recipes.targets(recipe.id);
      const folder = row?.folderId ?? (await ensureFolder(s, recipe, signal)).id;
      // a Sheet the start could not make (Google Sheets connected later): made now, before a file needs it
      if (row && !row.sheetId && targetNeeds(recipe.template).sheet) {
        await ensureSheet(s, recipe, signal).catch((e: unknown) => {
          if (!(e instanceof NotConnectedError)) log.warn(`The Google Sheet could not be created: ${(e as Error).message}`);
        });
      }
      const current = parseCursor(cursor);
      // a new folder (or an unreadable cursor): watch it from now on; what is already there waits for the user
      if (!current || current.folder !== folder) return { events: [], ...(await baseline(s, recipe, folder, signal)) };
      const e = googleEndpoints(s);
      const files = await withGoogleToken(s, recipe.managedUserId, 'google_drive', (token) =>
        listDriveFiles(e.driveUrl, token, filesQuery(folder, (Date.parse(current.since) || 0) - OVERLAP_MS), { orderBy: 'createdTime', signal }),
      );
      const fresh = files.filter((f) => !(f.id in current.seen) && f.mimeType !== FOLDER_MIME).sort((a, b) => time(a) - time(b));
      return { events: fresh.map((f) => eventOf(f, folder)), cursor: JSON.stringify(advance(current, files)) };
    },
  };
}
