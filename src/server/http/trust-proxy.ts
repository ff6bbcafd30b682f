import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's `trustProxy` from TRUST_PROXY. A hop count becomes a function that trusts that many
 * hops nearest the server (the peer and the next N-1 X-Forwarded-For entries): Fastify 5 takes a
 * bare number as "trust nothing", so behind one proxy every client had the proxy's address and
 * shared its rate limits. `request.ip` is then the right-most address no trusted hop vouches
 * for: the client the proxy reports, which a client cannot choose by prepending addresses.
 */
export function fastifyTrustProxy(trustProxy: false | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address: string, hop: number) => hop < hops;
}
