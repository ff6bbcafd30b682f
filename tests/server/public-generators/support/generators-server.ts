import publicGenerators from '../../../../plugins/public-generators/server';
import { startTestServer, type TestServer } from '../../../support/server';
import { startCompanySite, type CompanySite } from './company-site';

/**
 * The loopback company site and a server with the public generators that may fetch it (the
 * test-only loopback allowance on), for the /mia and /hal route tests.
 */
export async function startGeneratorsServer(): Promise<{ server: TestServer; site: CompanySite }> {
  const site = await startCompanySite();
  try {
    const server = await startTestServer({ plugins: [publicGenerators], env: { NODE_ENV: 'test', WEB_FETCH_ALLOW_LOOPBACK: 'true' } });
    return { server, site };
  } catch (e) {
    await site.close();
    throw e;
  }
}

/** Closes what startGeneratorsServer started (either may be missing when it failed). */
export async function closeGeneratorsServer(server: TestServer | undefined, site: CompanySite | undefined): Promise<void> {
  await server?.close();
  await site?.close();
}

/** POSTs from a given client address (the public routes rate-limit per address); the reply parsed as JSON. */
export async function postFrom(server: TestServer, address: string, url: string, payload: unknown, headers?: Record<string, string>) {
  const res = await server.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: address });
  return { status: res.statusCode, body: res.json() };
}
