import type { FastifyInstance } from 'fastify';
import { badRequest, HttpError } from './errors';

/**
 * Body limits every route gets. JSON bodies: Fastify's bodyLimit (100 KB unless a route declares
 * more) and, here, a nesting depth (a deeply nested body is a clear 400, never a stack overflow
 * further on). Multipart bodies bypass Fastify's bodyLimit (the parts are streamed), so they get
 * per-part limits (MULTIPART_LIMITS: files, file size, fields, field size) and a total checked
 * from Content-Length before a byte is read: the route's `config.multipartLimit`, else the sum
 * of the per-part limits.
 */
export const MAX_BODY_DEPTH = 32;
/** A text field of a multipart form. */
export const MAX_FIELD_BYTES = 64 * 1024;
export const MAX_FIELDS = 100;
export const MAX_FILES = 2;

export function multipartLimits(maxUploadBytes: number) {
  return { fileSize: maxUploadBytes, files: MAX_FILES, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FILES + MAX_FIELDS, headerPairs: 200 };
}

/** The largest multipart body the per-part limits allow (plus room for part headers). */
export function multipartTotal(maxUploadBytes: number): number {
  return MAX_FILES * maxUploadBytes + MAX_FIELDS * MAX_FIELD_BYTES + 256 * 1024;
}

/** Deeper than `max` levels of objects and arrays (iterative: a deep body cannot overflow it). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

export function installBodyLimits(app: FastifyInstance, opts: { maxUploadBytes: number }): void {
  const defaultTotal = multipartTotal(opts.maxUploadBytes);
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (typeof type !== 'string' || !/^multipart\//i.test(type)) return;
    const declared = (request.routeOptions.config as { multipartLimit?: number } | undefined)?.multipartLimit ?? defaultTotal;
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > declared) {
      throw new HttpError(413, `The upload is larger than the ${Number((declared / (1024 * 1024)).toFixed(1))} MB a request may carry.`);
    }
  });
  app.addHook('preValidation', async (request) => {
    if (request.body !== null && typeof request.body === 'object' && deeperThan(request.body, MAX_BODY_DEPTH)) {
      throw badRequest(`The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`);
    }
  });
}
