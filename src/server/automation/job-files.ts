import type { FastifyInstance } from 'fastify';
import { userOf } from '../auth/guard';
import { forbidden, notFound } from '../http/errors';
import { downloadUrl } from '../files/routes';
import type { AutomationEngine } from './engine';
import type { FileRef } from './kinds';

/** Every stored file's reference in a value (a step's output, a trigger payload), however deep. */
export function fileRefsIn(value: unknown, out: FileRef[] = [], depth = 0): FileRef[] {
  if (!value || typeof value !== 'object' || depth > 6) return out;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 500)) fileRefsIn(v, out, depth + 1);
    return out;
  }
  const f = value as Partial<FileRef>;
  if (typeof f.bucket === 'string' && typeof f.key === 'string' && typeof f.name === 'string' && typeof f.kind === 'string') {
    out.push(f as FileRef);
    return out;
  }
  for (const v of Object.values(value)) fileRefsIn(v, out, depth + 1);
  return out;
}

/**
 * GET /api/automation/jobs/:jobId/files/link?bucket=…&key=… → { name, url }: a short-lived
 * download link (bound to the caller's session, like every file link) for a file one of the
 * caller's job's steps produced or its trigger brought, e.g. a reconciliation's workbook. Another
 * user's job, or a file the job does not name, is 404.
 */
export function registerJobFileRoutes(app: FastifyInstance, deps: { engine: AutomationEngine; secretKey: string }): void {
  app.get('/api/automation/jobs/:jobId/files/link', { auth: 'user' }, async (request) => {
    const user = userOf(request);
    if (user.workatoId === null) throw forbidden('You have no automation workspace yet.');
    const job = await deps.engine.ownJob(user.workatoId, String((request.params as { jobId: string }).jobId));
    const { bucket, key } = request.query as { bucket?: unknown; key?: unknown };
    if (typeof bucket !== 'string' || typeof key !== 'string') throw notFound('File not found in this job.');
    const steps = await deps.engine.jobs.steps(job.id);
    const named = [...fileRefsIn(job.trigger_payload), ...steps.flatMap((s) => fileRefsIn(s.output))].find((f) => f.bucket === bucket && f.key === key);
    if (!named) throw notFound('File not found in this job.');
    return { name: named.name, url: downloadUrl(user, named, deps.secretKey) };
  });
}
