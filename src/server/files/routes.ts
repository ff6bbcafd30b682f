import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { EventBus } from '../../core/event-bus';
import type { ServerConfig } from '../config';
import { authenticate, userOf, type AuthUser } from '../auth/guard';
import { sessionStands } from '../auth/sessions';
import type { TokenService } from '../auth/token-service';
import type { Db } from '../db/database';
import { badRequest, HttpError } from '../http/errors';
import { FileTooLargeError, InvalidDownloadLinkError, UnsupportedFileTypeError } from './errors';
import { describeKinds, type FileKind } from './file-kinds';
import { DEFAULT_BUCKET, type FileStore, type StoredFile } from './file-store';
import { signDownload, verifyDownload } from './signed-link';
import downloadQuerySchema from '../../../schemas/files/download-query.schema.json';

/** How long an upload's or a search result's download link stays valid. */
export const DOWNLOAD_LINK_TTL_SEC = 15 * 60;

/** The path of the download route; links are `${DOWNLOAD_PATH}?token=…`. */
export const DOWNLOAD_PATH = '/api/files/download';

const MAX_FIELD_CHARS = 300;

export interface FileRoutesDeps {
  files: FileStore;
  config: Pick<ServerConfig, 'secretKey' | 'maxUploadBytes'>;
  events: Pick<EventBus, 'publish'>;
  /** To recognise a signed-in caller of the download link (optional bearer). */
  tokens: TokenService;
  db: Db;
  /** The kinds each workflow accepts at `uploadworkflowfile` ('10006' → pdf, png, jpeg): the plugins' WorkflowUploads. */
  uploadKinds: ReadonlyMap<string, readonly FileKind[]>;
}

/**
 * A short-lived link that downloads the signed-in owner's file (relative to the API base), bound
 * to the owner's session: it stops working at log-out or a password change. Other modules
 * (search results, extraction replies) call this so every file link has one shape.
 */
export function downloadUrl(
  owner: Pick<AuthUser, 'id' | 'session' | 'tokenVersion'>,
  file: { bucket: string; key: string },
  secret: string,
  expiresInSec = DOWNLOAD_LINK_TTL_SEC,
): string {
  const grant = { owner: owner.id, bucket: file.bucket, key: file.key, session: owner.session, version: owner.tokenVersion ?? 0, expiresInSec };
  return `${DOWNLOAD_PATH}?token=${encodeURIComponent(signDownload(grant, secret))}`;
}

/** The kinds a workflow takes; a 400 naming the workflow when it takes no uploads. */
export function kindsForWorkflow(uploadKinds: ReadonlyMap<string, readonly FileKind[]>, workflow: string | undefined): readonly FileKind[] {
  if (workflow === undefined || workflow.trim() === '') throw badRequest('Say which workflow the file is for (the workflow field is missing).');
  const kinds = uploadKinds.get(workflow.trim());
  if (!kinds) throw badRequest(`Workflow "${workflow.slice(0, 40)}" does not take file uploads.`);
  return kinds;
}

/** Turns @fastify/multipart's own errors into the file store's readable ones. */
function multipartError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new FileTooLargeError(maxBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest('Send one file per upload.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest('The upload form has too many fields.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest('Send the file as multipart form data (fields name, file, country, workflow).');
  if (code === 'FST_PROTO_VIOLATION') return badRequest('The upload form is malformed.');
  return error;
}

interface UploadFields {
  name?: string;
  country?: string;
  workflow?: string;
}

/**
 * Reads the multipart form: text fields, and the one `file` part streamed into the store. The
 * spec's client sends `name, file, country, workflow` — the workflow after the file — so a file
 * that arrives before its workflow is stored accepting any workflow's kinds and checked against
 * its workflow's kinds once the form is read (and deleted if refused).
 */
async function receiveUpload(
  request: FastifyRequest,
  deps: FileRoutesDeps,
  owner: number,
): Promise<{ stored: StoredFile; fields: UploadFields; checkedEarly: boolean }> {
  const fields: UploadFields = {};
  let stored: StoredFile | undefined;
  let checkedEarly = false;
  let refusedKind: UnsupportedFileTypeError | undefined;
  const maxBytes = deps.config.maxUploadBytes;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const file = part as MultipartFile;
        if (file.fieldname !== 'file' || stored) {
          file.file.resume();
          throw badRequest(stored ? 'Send one file per upload.' : `Unexpected file field "${file.fieldname.slice(0, 40)}"; send the file as "file".`);
        }
        checkedEarly = fields.workflow !== undefined;
        // every kind some workflow accepts when the file arrives before the workflow field
        const allowed = checkedEarly ? kindsForWorkflow(deps.uploadKinds, fields.workflow) : [...new Set([...deps.uploadKinds.values()].flat())];
        try {
          stored = await deps.files.put(owner, file.file, {
            originalName: fields.name?.trim() || file.filename || 'file',
            allowed,
            maxBytes,
            bucket: DEFAULT_BUCKET,
          });
        } catch (error) {
          // refused against every workflow's kinds: say it again with this workflow's kinds once known
          if (checkedEarly || !(error instanceof UnsupportedFileTypeError)) throw error;
          refusedKind = error;
          file.file.resume();
          continue;
        }
        if (file.file.truncated) throw new FileTooLargeError(maxBytes);
      } else if (part.fieldname === 'name' || part.fieldname === 'country' || part.fieldname === 'workflow') {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        if (value.length > MAX_FIELD_CHARS) throw badRequest(`The ${part.fieldname} field is too long (at most ${MAX_FIELD_CHARS} characters).`);
        fields[part.fieldname] = value;
      }
      // other text fields are ignored
    }
  } catch (error) {
    if (stored) await deps.files.delete(owner, stored.bucket, stored.key).catch(() => undefined);
    throw multipartError(error, maxBytes);
  }
  if (refusedKind) {
    // "The uploaded file is not a … file (it is a zip archive …)." — keep the reason, name this workflow's kinds
    const reason = /\((.+)\)\.$/.exec(refusedKind.message)?.[1];
    throw new UnsupportedFileTypeError(describeKinds(kindsForWorkflow(deps.uploadKinds, fields.workflow)), reason);
  }
  if (!stored) throw badRequest('Choose a file to upload (the file field is missing).');
  return { stored, fields, checkedEarly };
}

/** Sends an owner's file: its own type, its original name, never sniffed, never cached. */
async function sendFile(reply: FastifyReply, files: FileStore, grant: { owner: number; bucket: string; key: string }) {
  const { stream, meta } = await files.open(grant.owner, grant.bucket, grant.key);
  const inline = meta.kind === 'png' || meta.kind === 'jpeg' || meta.kind === 'pdf';
  const ascii = meta.originalName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('Content-Type', meta.mime)
    .header('Content-Length', String(meta.size))
    .header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(meta.originalName)}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(stream);
}

/**
 * POST /api/platform/uploadworkflowfile (multipart name, file, country, workflow → url, key,
 * bucket) and GET /api/files/download?token=… (the signed, short-lived link in `url`).
 */
export function registerFileRoutes(app: FastifyInstance, deps: FileRoutesDeps): void {
  app.post('/api/platform/uploadworkflowfile', { auth: 'user', config: { rateLimit: { max: 60, timeWindow: '1 minute' } } }, async (request) => {
    const user = userOf(request);
    if (!request.isMultipart()) throw badRequest('Send the file as multipart form data (fields name, file, country, workflow).');
    const { stored, fields, checkedEarly } = await receiveUpload(request, deps, user.id);
    if (!checkedEarly) {
      let allowed: readonly FileKind[];
      try {
        allowed = kindsForWorkflow(deps.uploadKinds, fields.workflow);
      } catch (error) {
        await deps.files.delete(user.id, stored.bucket, stored.key).catch(() => undefined);
        throw error;
      }
      if (!allowed.includes(stored.kind)) {
        await deps.files.delete(user.id, stored.bucket, stored.key).catch(() => undefined);
        throw new UnsupportedFileTypeError(describeKinds(allowed), `it is ${describeKinds([stored.kind])} file`);
      }
    }
    const workflow = fields.workflow!.trim();
    deps.events.publish('file/stored', { owner: user.id, bucket: stored.bucket, key: stored.key, name: stored.originalName, kind: stored.kind, workflow });
    return { url: downloadUrl(user, stored, deps.config.secretKey), key: stored.key, bucket: stored.bucket };
  });

  app.get<{ Querystring: { token: string } }>(DOWNLOAD_PATH, { schema: { querystring: downloadQuerySchema } }, async (request, reply) => {
    const grant = verifyDownload(request.query.token, deps.config.secretKey);
    // a link ends with the session it was made in (log-out, password change)
    if (grant.version !== undefined && !(await sessionStands(deps.db, { userId: grant.owner, session: grant.session, version: grant.version }))) {
      throw new InvalidDownloadLinkError('expired');
    }
    // a link is a bearer credential bound to its owner; a signed-in caller who is someone else is refused
    if (request.headers.authorization) {
      const caller = await authenticate(request, deps, 'unverified').catch(() => undefined);
      if (caller && caller.id !== grant.owner) throw new HttpError(403, 'This download link belongs to another account.');
    }
    return sendFile(reply, deps.files, grant);
  });
}
