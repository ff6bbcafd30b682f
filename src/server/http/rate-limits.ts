import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { HttpError } from './errors';

export const TOO_MANY_WRITES = 'Too many requests. Please wait a minute and try again.';

/** The write methods: every route with one of these gets the write limits unless it opts out. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface WriteLimits {
  /** writes per account per minute, per route */
  perUser: number;
  /** writes per client address per minute, per route */
  perAddress: number;
}

declare module 'fastify' {
  interface RouteShorthandOptions {
    /**
     * The default write limits (per account and per address, per minute) apply to every
     * POST/PUT/PATCH/DELETE route; `writeLimit: false` opts a route out, e.g. one that declares
     * its own `config.rateLimit` (a route with `config.rateLimit` is skipped anyway).
     */
    writeLimit?: false;
  }
}

type Limiter = (req: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded: boolean; ttlInSeconds: number; max: number }>;

function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

function tooMany(ttlInSeconds: number): HttpError {
  return new HttpError(429, TOO_MANY_WRITES, { retry_after: Math.max(1, ttlInSeconds) });
}

/**
 * Rate-limits every write route at app level (needs @fastify/rate-limit registered first, so the
 * counters share its store: memory, or Redis across processes). Two counters per route: the client
 * address (checked before authentication) and the account (after it, for `auth` routes).
 * Anonymous write routes count per address only. Must be installed after installRouteAuth, so the
 * account counter runs after the auth check in onRequest.
 */
export function installWriteRateLimits(app: FastifyInstance, limits: WriteLimits): void {
  const create = (app as unknown as { createRateLimit(o: object): Limiter }).createRateLimit;
  const byAddress = create({ max: limits.perAddress, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => `wa|${routeKey(r)}|${r.ip}` });
  const byUser = create({
    max: limits.perUser,
    timeWindow: '1 minute',
    keyGenerator: (r: FastifyRequest) => `wu|${routeKey(r)}|${r.user?.id ?? `ip:${r.ip}`}`,
  });

  const check = (limiter: Limiter): onRequestAsyncHookHandler =>
    async function writeRateLimit(request, reply) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
        throw tooMany(result.ttlInSeconds);
      }
    };
  const addressHook = check(byAddress);
  const userHook = check(byUser);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => WRITE_METHODS.has(String(m).toUpperCase()))) return;
    if (route.writeLimit === false || route.config?.rateLimit != null) return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = route.auth ? [addressHook, ...existing, userHook] : [addressHook, ...existing];
  });
}

export const TOO_MANY_FOR_RECIPIENT = 'Too many requests for this e-mail address. Please try again later.';

/**
 * A limit on something other than the client address, e.g. the e-mail address a public form
 * writes to (so many clients cannot all aim at one recipient): a preHandler (the body is parsed by
 * then) counting per `keyOf(request)` in the rate-limit store (memory, or Redis across processes).
 * A request without a key is not counted.
 */
export function keyedRateLimit(
  app: FastifyInstance,
  opts: { name: string; max: number; timeWindow: string; keyOf: (request: FastifyRequest) => string | undefined; message?: string },
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const create = (app as unknown as { createRateLimit(o: object): Limiter }).createRateLimit;
  const keys = new WeakMap<FastifyRequest, string>();
  const limiter = create({ max: opts.max, timeWindow: opts.timeWindow, keyGenerator: (r: FastifyRequest) => `k|${opts.name}|${keys.get(r)}` });
  return async (request, reply) => {
    const key = opts.keyOf(request);
    if (!key) return;
    keys.set(request, key);
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
      throw new HttpError(429, opts.message ?? TOO_MANY_FOR_RECIPIENT, { retry_after: Math.max(1, result.ttlInSeconds) });
    }
  };
}

export const TOO_MANY_FAILURES = 'Too many failed attempts from your address. Please wait a few minutes and try again.';

/**
 * A limit on failures only (e.g. unknown tokens tried from one client address): `failed` counts
 * one in the rate-limit store (shared through Redis) and, past `max` in the window, answers 429
 * and remembers the address here, so that `check` (called before the lookup) refuses its next
 * calls at once, even a right guess, until the window ends.
 */
export function failureLimit(app: FastifyInstance, opts: { name: string; max: number; timeWindow: string }) {
  const create = (app as unknown as { createRateLimit(o: object): Limiter }).createRateLimit;
  const limiter = create({ max: opts.max, timeWindow: opts.timeWindow, keyGenerator: (r: FastifyRequest) => `f|${opts.name}|${r.ip}` });
  const blockedUntil = new Map<string, number>();
  const refuse = (reply: FastifyReply, untilMs: number) => {
    const seconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1000));
    reply.header('retry-after', String(seconds));
    return new HttpError(429, TOO_MANY_FAILURES, { retry_after: seconds });
  };
  return {
    check(request: FastifyRequest, reply: FastifyReply): void {
      const until = blockedUntil.get(request.ip);
      if (until === undefined) return;
      if (until > Date.now()) throw refuse(reply, until);
      blockedUntil.delete(request.ip);
    },
    async failed(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const result = await limiter(request);
      if (result.isAllowed || !result.isExceeded) return;
      const until = Date.now() + Math.max(1, result.ttlInSeconds) * 1000;
      if (blockedUntil.size > 10_000) for (const [ip, t] of blockedUntil) if (t <= Date.now()) blockedUntil.delete(ip);
      blockedUntil.set(request.ip, until);
      throw refuse(reply, until);
    },
  };
}
