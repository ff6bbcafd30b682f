import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../../support/server';

describe('serving the built client on the API origin', () => {
  let server: TestServer;
  let client: string;
  beforeAll(async () => {
    client = mkdtempSync(path.join(tmpdir(), 'client-'));
    mkdirSync(path.join(client, 'assets'));
    writeFileSync(path.join(client, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(client, 'assets', 'main.abc123.js'), 'console.log(1)');
    server = await startTestServer({ env: { CLIENT_DIR: client } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(client, { recursive: true, force: true });
  });

  it('serves index.html for every page path, uncached', async () => {
    for (const p of ['/', '/home', '/solutions/combinations/workflow/10', '/login?verify=true&email=a%40b.co&token=x']) {
      const res = await server.app.inject({ method: 'GET', url: p });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache, and files added after start-up', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/assets/main.abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    writeFileSync(path.join(client, 'assets', 'chunk.def456.js'), 'console.log(2)');
    expect((await server.app.inject({ method: 'GET', url: '/assets/chunk.def456.js' })).statusCode).toBe(200);
  });

  it('answers a missing file with 404, never the HTML page (an old chunk after a rebuild)', async () => {
    for (const p of ['/assets/gone.123.js', '/favicon.ico', '/robots.txt']) {
      const res = await server.app.inject({ method: 'GET', url: p });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
    }
  });

  it('keeps API 404s as JSON and refuses path traversal', async () => {
    expect((await server.call('GET', '/api/nothing')).body).toEqual({ status: 'error', message: 'Not found.' });
    const res = await server.app.inject({ method: 'GET', url: '/assets/..%2f..%2fetc%2fpasswd' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.body).not.toContain('root:');
  });
});

describe('bad requests get a clear JSON message, never a stack', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each([
    ['broken JSON', 'application/json', '{"username": ', /not valid JSON/],
    ['empty JSON body', 'application/json', '', /cannot be empty/],
    ['form-encoded body', 'application/x-www-form-urlencoded', 'a=b', /Send the request body as JSON/],
  ])('%s', async (_name, type, payload, message) => {
    const res = await server.app.inject({ method: 'POST', url: '/api/platform/api-jwt-token/', headers: { 'content-type': type }, payload });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const body = JSON.parse(res.body);
    expect(body.status).toBe('error');
    expect(body.message).toMatch(message);
    expect(res.body).not.toMatch(/at .+\.(ts|js):\d+/);
  });
});
