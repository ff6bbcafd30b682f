import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentSecurityPolicy } from '../../../src/server/http/security-headers';
import { startTestServer } from '../../support/server';

/** The script-src of a Content-Security-Policy header. */
const scriptSrc = (csp: string) => /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1] ?? '';

describe('Content-Security-Policy without eval', () => {
  it("serves the app page and the API with a script-src of 'self' only: no 'unsafe-eval', no inline script", async () => {
    const client = mkdtempSync(path.join(tmpdir(), 'csp-client-'));
    writeFileSync(path.join(client, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    const server = await startTestServer({ env: { CLIENT_DIR: client } });
    try {
      for (const url of ['/login', '/api/platform/solutions']) {
        const res = await server.call('GET', url);
        const csp = String(res.headers['content-security-policy']);
        expect([url, scriptSrc(csp)]).toEqual([url, "'self'"]);
        expect(csp).not.toContain('unsafe-eval');
      }
    } finally {
      await server.close();
      rmSync(client, { recursive: true, force: true });
    }
  });

  it('adds only the analytics hosts in production, still without eval', () => {
    const prod = contentSecurityPolicy({ production: true, scriptHosts: ['https://analytics.example.com'] });
    expect(prod['script-src']).toEqual(["'self'", 'https://analytics.example.com']);
    expect(Object.values(prod).flat()).not.toContain("'unsafe-eval'");
  });
});
