import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

export const NUL_REFUSED = 'Text must not contain the NUL character (\\u0000).';

/** Whether a parsed JSON value holds a string (or key) with a NUL character, at any depth. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  if (Buffer.isBuffer(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

/**
 * PostgreSQL refuses 0x00 in text, which would surface as a 500: refuse it up front, with a 400,
 * in the request body of every route (before schema validation). Path and query values are each
 * route's to check (they are ids and paths with their own messages).
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined && containsNul(request.body)) throw badRequest(NUL_REFUSED);
  });
}
