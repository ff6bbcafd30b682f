import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

export interface SecurityHeaderOptions {
  production: boolean;
  /** origins of third-party scripts (the analytics, production only) */
  scriptHosts: string[];
  /** whether the client's *.map files may be served */
  serveSourceMaps: boolean;
}

/**
 * The Content-Security-Policy of the app: scripts only from this origin (no inline script; the
 * analytics hosts in production), styles from this origin plus inline styles (Fluent UI's
 * Griffel and the charts write style elements and attributes), no plugins, framed only by
 * this origin. No 'unsafe-eval': the forms' JSON-Schema validators are compiled at build time
 * (schemas/generate-form-validators.ts), so nothing in the client builds code at run time.
 */
export function contentSecurityPolicy(opts: Pick<SecurityHeaderOptions, 'production' | 'scriptHosts'>): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(opts.production ? opts.scriptHosts : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(opts.production ? opts.scriptHosts : [])],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    ...(opts.production ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Registers @fastify/helmet (CSP, frame-ancestors 'self', nosniff, Referrer-Policy, HSTS in
 * production) and, unless allowed, answers 404 for source maps so the original sources are not
 * published.
 */
export async function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(opts) },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: opts.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  if (!opts.serveSourceMaps) {
    app.addHook('onRequest', async (request, reply) => {
      if (/\.map$/i.test(request.url.split('?')[0])) {
        return reply.code(404).send({ status: 'error', message: 'Not found.' });
      }
    });
  }
}
