import { safeFetch, WebFetchError } from '../../../src/server/web-fetch/safe-fetch';
import { startFixtureSite, redirect, type FixtureSite } from './fixture-site';

async function failure(promise: Promise<unknown>): Promise<WebFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebFetchError);
    return error as WebFetchError;
  }
  throw new Error('expected the request to fail');
}

interface Seen {
  method: string;
  path: string;
  type?: string;
  key?: string;
  body: string;
}

describe('safeFetch POST (JSON body, same SSRF guard and limits)', () => {
  let site: FixtureSite;
  const seen: Seen[] = [];
  const echo = (status: number) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, path: req.url!, type: req.headers['content-type'], key: req.headers['x-api-key'] as string | undefined, body });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ got: body ? JSON.parse(body) : null, method: req.method }));
    });
  };

  beforeAll(async () => {
    site = await startFixtureSite({
      '/hook': echo(201),
      '/refuse': echo(422),
      '/keep-post': redirect('/hook', 307),
      '/see-other': redirect('/hook', 303),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/', 307),
      '/big': (req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ pad: 'x'.repeat(4096) }));
      },
    });
  });
  afterAll(() => site.close());
  beforeEach(() => {
    seen.length = 0;
  });

  it('posts a JSON body with the caller headers and reads the JSON answer', async () => {
    const r = await safeFetch(`${site.origin}/hook`, {
      method: 'POST',
      json: { vat: 'GB123', n: 2 },
      headers: { 'X-Api-Key': 'k1', Host: 'evil.example' },
      accept: ['application/json'],
      allowLoopback: true,
    });
    expect(r.status).toBe(201);
    expect(r.contentType).toBe('application/json');
    expect(JSON.parse(r.body.toString('utf8'))).toEqual({ got: { vat: 'GB123', n: 2 }, method: 'POST' });
    expect(seen).toEqual([{ method: 'POST', path: '/hook', type: 'application/json', key: 'k1', body: '{"vat":"GB123","n":2}' }]);
  });

  it('a 307 repeats the POST with its body, a 303 continues as a GET without it', async () => {
    await safeFetch(`${site.origin}/keep-post`, { method: 'POST', json: { a: 1 }, accept: ['application/json'], allowLoopback: true });
    const r = await safeFetch(`${site.origin}/see-other`, { method: 'POST', json: { a: 2 }, accept: ['application/json'], allowLoopback: true });
    expect(seen).toEqual([
      { method: 'POST', path: '/hook', type: 'application/json', key: undefined, body: '{"a":1}' },
      { method: 'GET', path: '/hook', type: undefined, key: undefined, body: '' },
    ]);
    expect(r.redirects).toEqual([`${site.origin}/see-other`, `${site.origin}/hook`]);
  });

  it('an error status throws unless the caller reads error bodies', async () => {
    const e = await failure(safeFetch(`${site.origin}/refuse`, { method: 'POST', json: {}, accept: ['application/json'], allowLoopback: true }));
    expect(e.code).toBe('http-status');
    expect(e.message).toBe('The website answered with status 422.');
    const r = await safeFetch(`${site.origin}/refuse`, {
      method: 'POST',
      json: { b: true },
      accept: ['application/json'],
      allowLoopback: true,
      allowErrorStatus: true,
    });
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body.toString('utf8'))).toEqual({ got: { b: true }, method: 'POST' });
  });

  it('refuses to POST to loopback, link-local metadata and private ranges before connecting', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://[::1]/',
      'http://0x7f000001/',
    ]) {
      const e = await failure(safeFetch(url, { method: 'POST', json: { x: 1 } }));
      expect(e.code).toBe('forbidden-address');
    }
    // the local fixture is loopback too: refused without the test-only allowance, and nothing arrived
    const local = await failure(safeFetch(`${site.origin}/hook`, { method: 'POST', json: { x: 1 } }));
    expect(local.code).toBe('forbidden-address');
    expect(seen).toEqual([]);
  });

  it('refuses a 307 that would re-POST to the metadata address', async () => {
    const e = await failure(safeFetch(`${site.origin}/to-metadata`, { method: 'POST', json: { x: 1 }, accept: ['application/json'], allowLoopback: true }));
    expect(e.code).toBe('forbidden-address');
  });

  it('keeps the size limits both ways and refuses other methods', async () => {
    const tooBig = await failure(
      safeFetch(`${site.origin}/hook`, { method: 'POST', json: { pad: 'y'.repeat(2048) }, maxRequestBytes: 1024, allowLoopback: true }),
    );
    expect(tooBig.code).toBe('too-large');
    expect(tooBig.message).toBe('The request body is larger than 1 KB and was not sent.');
    const answer = await failure(
      safeFetch(`${site.origin}/big`, { method: 'POST', json: {}, maxBytes: 1024, accept: ['application/json'], allowLoopback: true }),
    );
    expect(answer.code).toBe('too-large');
    const method = await failure(safeFetch(`${site.origin}/hook`, { method: 'DELETE' as never, allowLoopback: true }));
    expect([method.code, method.message]).toEqual(['unsupported-method', 'Only GET and POST requests can be sent, not DELETE.']);
    expect(seen).toEqual([]);
  });
});
