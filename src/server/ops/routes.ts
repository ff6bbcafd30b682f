import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerMetrics } from './metrics';

/** One dependency /readyz asks: it resolves when ready and throws when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /** Releases what the check holds (e.g. its Redis connection); runs when the app closes. */
  close?(): Promise<void>;
}

export interface OpsRoutesOptions {
  checks: ReadinessCheck[];
  metrics: ServerMetrics;
  /** METRICS_TOKEN: when set, /metrics wants `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** How long one check may take before it counts as failing, ms; default 2000. */
  checkTimeoutMs?: number;
  /**
   * Set when the process begins its graceful shutdown: /readyz then answers 503 naming
   * "shutting down" (read on every request, so the owner of this object sets it).
   */
  draining?: boolean;
}

function wantsText(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  const text = accept.indexOf('text/plain');
  const json = accept.indexOf('application/json');
  return text >= 0 && (json < 0 || text < json);
}

function answer(request: FastifyRequest, reply: FastifyReply, code: number, body: { status: string; failing?: string[] }) {
  reply.code(code).header('Cache-Control', 'no-store');
  if (!wantsText(request)) return reply.send(body);
  const text = body.failing?.length ? `${body.status}: ${body.failing.join(', ')}\n` : `${body.status}\n`;
  return reply.type('text/plain; charset=utf-8').send(text);
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** GET /healthz (alive), GET /readyz (every dependency answers) and GET /metrics (Prometheus text). */
export function installOpsRoutes(app: FastifyInstance, opts: OpsRoutesOptions): void {
  const timeoutMs = opts.checkTimeoutMs ?? 2000;
  app.addHook('onClose', async () => {
    await Promise.allSettled(opts.checks.map((c) => c.close?.()));
  });
  app.get('/healthz', async (request, reply) => answer(request, reply, 200, { status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    if (opts.draining) return answer(request, reply, 503, { status: 'unavailable', failing: ['shutting down'] });
    const results = await Promise.allSettled(opts.checks.map((c) => withTimeout(c.check(), timeoutMs)));
    const failing = opts.checks.filter((_, i) => results[i].status === 'rejected').map((c) => c.name);
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected') request.log.warn({ err: r.reason }, `readiness: ${opts.checks[i].name} is not ready`);
    }
    return failing.length ? answer(request, reply, 503, { status: 'unavailable', failing }) : answer(request, reply, 200, { status: 'ready' });
  });
  app.get('/metrics', async (request, reply) => {
    if (opts.metricsToken) {
      const header = String(request.headers.authorization ?? '');
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!sameToken(given, opts.metricsToken)) {
        return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ status: 'error', message: 'The metrics need a valid bearer token.' });
      }
    }
    const { contentType, body } = await opts.metrics.text();
    return reply.code(200).type(contentType).header('Cache-Control', 'no-store').send(body);
  });
}
