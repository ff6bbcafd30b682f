import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, NotConnectedError, notFound, parseId, userOf, HttpError, type ConnectionService, type TriggerPoller } from '../../src/server';
import { FOLDER_MIME, getDriveFile, listDriveFiles, SPREADSHEET_MIME, GoogleApiError, type DriveFile } from './google-api';
import { googleEndpoints, targetNeeds, withGoogleToken, type TargetServices } from './targets';

export const TARGETS_PREFIX = '/api/plugins/connectors';

/** What the setup screen's detail column shows about a recipe's Drive folder and Sheet. */
export interface TargetsView {
  recipe_id: number;
  combination_name: string;
  needs: { folder: boolean; sheet: boolean };
  folder: { id: string; name: string | null } | null;
  sheet: { id: string; name: string | null } | null;
  /** the Drive trigger's state (watching, last look, last error), null when the recipe has none */
  trigger: Awaited<ReturnType<TriggerPoller['stateById']>> | null;
}

type Kind = 'folder' | 'spreadsheet';
const MIME: Record<Kind, string> = { folder: FOLDER_MIME, spreadsheet: SPREADSHEET_MIME };
/** Which connection lists each kind (a Sheet is a Drive file; the Sheets connection can see the ones it may write). */
const PROVIDER: Record<Kind, string> = { folder: 'google_drive', spreadsheet: 'google_sheets' };
const WHAT: Record<Kind, string> = { folder: 'Google Drive folder', spreadsheet: 'Google Sheet' };

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 12 } } } as const;
const pickerQuery = {
  type: 'object',
  required: ['kind'],
  properties: {
    kind: { type: 'string', enum: ['folder', 'spreadsheet'] },
    connection_id: { type: 'string', maxLength: 12 },
    q: { type: 'string', maxLength: 100 },
  },
} as const;
const targetsBody = {
  type: 'object',
  minProperties: 1,
  properties: {
    folder_id: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
    sheet_id: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
  },
} as const;

function workatoIdOf(request: Parameters<typeof userOf>[0]): number {
  const id = userOf(request).workatoId;
  if (!id) throw forbidden('This account has no workspace yet.');
  return id;
}

/** A provider failure as this product's answer: not connected → 409 with the advice, Google's errors → 502. */
function providerError(e: unknown): unknown {
  if (e instanceof NotConnectedError) return new HttpError(409, e.message);
  if (e instanceof GoogleApiError) return new HttpError(502, e.message);
  return e;
}

/**
 * The routes behind the setup screen's folder and Sheet pickers, all for the signed-in caller's
 * own recipe and connections:
 *   GET /api/plugins/connectors/recipes/:id/targets   the recipe's folder and Sheet (with names) and its trigger's state
 *   PUT /api/plugins/connectors/recipes/:id/targets   { folder_id?, sheet_id? }: checked in the caller's Drive, then stored
 *   GET /api/plugins/connectors/picker?kind=folder|spreadsheet[&connection_id=][&q=]
 *       the caller's folders or spreadsheets (Drive files.list with the caller's own connection;
 *       another user's connection id is 404)
 */
export function registerTargetRoutes(app: FastifyInstance, deps: { services: () => TargetServices; connections: ConnectionService; poller: TriggerPoller }) {
  const ownRecipe = async (request: Parameters<typeof userOf>[0]) => {
    const workatoId = workatoIdOf(request);
    const id = parseId((request.params as { id: string }).id, 'The recipe id');
    const row = await deps.services().recipes.targets(id);
    if (!row || row.managedUserId !== workatoId) throw notFound('Recipe not found.');
    return { workatoId, row };
  };

  /**
   * A Google call with the caller's stored token. A 401 (the grant was revoked since the token
   * was issued) refreshes at once: a dead grant marks the connection lost, so the screens stop
   * showing it connected; a live one gets a fresh token and the call is made once more.
   */
  const withGoogle = <R>(workatoId: number, provider: string, call: (token: string) => Promise<R>): Promise<R> =>
    withGoogleToken({ ...deps.services(), connections: deps.connections }, workatoId, provider, call);

  const describe = async (workatoId: number, kind: Kind, id: string | null): Promise<{ id: string; name: string | null } | null> => {
    if (!id) return null;
    try {
      const file = await withGoogle(workatoId, PROVIDER[kind], (token) => getDriveFile(googleEndpoints(deps.services()).driveUrl, token, id));
      return { id, name: file?.name ?? null };
    } catch {
      // not connected or Google unreachable: the id is still the recipe's
      return { id, name: null };
    }
  };

  const view = async (workatoId: number, recipeId: number): Promise<TargetsView> => {
    const row = (await deps.services().recipes.targets(recipeId))!;
    const [folder, sheet, trigger] = await Promise.all([
      describe(workatoId, 'folder', row.folderId),
      describe(workatoId, 'spreadsheet', row.sheetId),
      deps.poller.stateById(recipeId),
    ]);
    return { recipe_id: row.id, combination_name: row.combinationName, needs: targetNeeds(row.template), folder, sheet, trigger: trigger ?? null };
  };

  /** The connection that lists a kind for the caller: the given one (theirs only) or their default one. */
  const providerFor = async (workatoId: number, kind: Kind, connectionParam?: string): Promise<string> => {
    if (connectionParam === undefined) return PROVIDER[kind];
    const own = await deps.connections.ownConnection(workatoId, parseId(connectionParam, 'The connection id'));
    if (own.provider !== 'google_drive' && own.provider !== 'google_sheets')
      throw badRequest('Folders and spreadsheets are listed through a Google Drive or Google Sheets connection.');
    return own.provider;
  };

  app.get(`${TARGETS_PREFIX}/recipes/:id/targets`, { auth: 'user', schema: { params: idParams } }, async (request) => {
    const { workatoId, row } = await ownRecipe(request);
    return view(workatoId, row.id);
  });

  app.put(
    `${TARGETS_PREFIX}/recipes/:id/targets`,
    { auth: 'user', schema: { params: idParams, body: targetsBody }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const { workatoId, row } = await ownRecipe(request);
      const body = request.body as { folder_id?: string; sheet_id?: string };
      const s = deps.services();
      const check = async (kind: Kind, id: string): Promise<DriveFile> => {
        try {
          const file = await withGoogle(workatoId, PROVIDER[kind], (token) => getDriveFile(googleEndpoints(s).driveUrl, token, id));
          if (!file) throw notFound(`That ${WHAT[kind]} was not found in your account.`);
          if (file.mimeType !== MIME[kind]) throw badRequest(`"${file.name}" is not a ${WHAT[kind]}.`);
          return file;
        } catch (e) {
          throw providerError(e);
        }
      };
      const set: { folderId?: string; sheetId?: string } = {};
      if (body.folder_id !== undefined) set.folderId = (await check('folder', body.folder_id)).id;
      if (body.sheet_id !== undefined) set.sheetId = (await check('spreadsheet', body.sheet_id)).id;
      await s.recipes.setTargets(row.id, workatoId, set);
      // a new folder is watched from now on (the trigger notices the change at its next look)
      if (set.folderId && set.folderId !== row.folderId) await deps.poller.pollSoon(row.id);
      return view(workatoId, row.id);
    },
  );

  app.get(
    `${TARGETS_PREFIX}/picker`,
    { auth: 'user', schema: { querystring: pickerQuery }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request) => {
      const workatoId = workatoIdOf(request);
      const query = request.query as { kind: Kind; connection_id?: string; q?: string };
      try {
        const provider = await providerFor(workatoId, query.kind, query.connection_id);
        const search = query.q?.trim() ? ` and name contains '${query.q.trim().replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : '';
        const files = await withGoogle(workatoId, provider, (token) =>
          listDriveFiles(googleEndpoints(deps.services()).driveUrl, token, `mimeType = '${MIME[query.kind]}' and trashed = false${search}`, { maxPages: 5 }),
        );
        return { kind: query.kind, items: files.map((f) => ({ id: f.id, name: f.name })).sort((a, b) => a.name.localeCompare(b.name)) };
      } catch (e) {
        throw providerError(e);
      }
    },
  );
}
