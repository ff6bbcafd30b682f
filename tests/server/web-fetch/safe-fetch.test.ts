import type { LookupAddress } from 'node:dns';
import { safeFetch, WebFetchError, IMAGE_TYPES, decodeBody } from '../../../src/server/web-fetch/safe-fetch';
import { startFixtureSite, html, redirect, type FixtureSite } from './fixture-site';

/** Captures the WebFetchError a call rejects with. */
async function failure(promise: Promise<unknown>): Promise<WebFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebFetchError);
    return error as WebFetchError;
  }
  throw new Error('expected the fetch to fail');
}

/** A resolver that answers from a table, as a DNS server under an attacker's control would. */
function fakeLookup(table: Record<string, LookupAddress[]>) {
  return ((hostname: string, _options: unknown, callback: (err: Error | null, addresses: LookupAddress[]) => void) => {
    const answer = table[hostname];
    if (answer) callback(null, answer);
    else callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []);
  }) as never;
}

describe('safeFetch', () => {
  let site: FixtureSite;
  let hits = 0;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/page': html('<html><head><title>Hi</title></head><body>hello</body></html>'),
      '/r1': redirect('/r2'),
      '/r2': redirect('/page', 301),
      '/loop': (_req, res) => {
        hits++;
        res.writeHead(302, { location: `/loop?n=${hits}` });
        res.end();
      },
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-private-hex': redirect('http://0xa.0.0.1/'),
      '/to-mapped': redirect('http://[::ffff:a9fe:a9fe]/'),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-creds': redirect('http://user:pw@example.com/'),
      '/chain-to-private': redirect('/chain-step'),
      '/chain-step': redirect('http://192.168.0.1:8080/admin', 307),
      '/big': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        for (let i = 0; i < 40; i++) res.write(chunk);
        res.end();
      },
      '/big-declared': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(5 * 1024 * 1024) });
        res.end();
      },
      '/slow': (_req, res) => {
        const timer = setTimeout(() => res.end('late'), 5000);
        res.on('close', () => clearTimeout(timer));
      },
      '/slow-body': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html>');
        const timer = setTimeout(() => res.end('</html>'), 5000);
        res.on('close', () => clearTimeout(timer));
      },
      '/json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      },
      '/no-type': (_req, res) => {
        res.writeHead(200);
        res.end('x');
      },
      '/png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      },
      '/latin1': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
        res.end(Buffer.from('<p>caf\xe9</p>', 'latin1'));
      },
      '/missing': (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('boom');
      },
    });
  });

  afterAll(() => site.close());

  it('reads a loopback page only with the test-only allowance', async () => {
    const result = await safeFetch(`${site.origin}/page`, { allowLoopback: true });
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('text/html');
    expect(result.body.toString()).toContain('hello');

    const refused = await failure(safeFetch(`${site.origin}/page`));
    expect(refused.code).toBe('forbidden-address');
    expect(refused.message).toBe('That address points to this server itself and cannot be read.');
  });

  it('refuses a hostname that resolves to loopback (localhost) at connect time', async () => {
    const refused = await failure(safeFetch(`http://localhost:${site.port}/page`));
    expect(refused.code).toBe('forbidden-address');
    expect(refused.detail).toMatch(/^localhost -> (127\.0\.0\.1|::1)/);
  });

  it('refuses loopback literals in decimal, hex and short forms', async () => {
    for (const host of ['2130706433', '0x7f.1', '127.1', '[::ffff:127.0.0.1]', '[::1]']) {
      const refused = await failure(safeFetch(`http://${host}:${site.port}/page`));
      expect(refused.code).toBe('forbidden-address');
    }
  });

  it('refuses a name whose DNS answer contains a private address (rebinding)', async () => {
    const lookup = fakeLookup({
      'rebind.example': [{ address: '10.0.0.7', family: 4 }],
      'mixed.example': [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
      'v6.example': [{ address: 'fd00::1', family: 6 }],
    });
    for (const host of ['rebind.example', 'mixed.example', 'v6.example']) {
      const refused = await failure(safeFetch(`http://${host}/`, { lookup }));
      expect(refused.code).toBe('forbidden-address');
      expect(refused.message).toMatch(/cannot be read/);
    }
  });

  it('reports an unknown host as not found', async () => {
    const refused = await failure(safeFetch('http://nowhere.example/', { lookup: fakeLookup({}) }));
    expect(refused.code).toBe('dns-failure');
    expect(refused.message).toBe('That website could not be found.');
  });

  it('a name resolving to loopback is allowed under the test allowance (connects to the checked address)', async () => {
    const lookup = fakeLookup({ 'fixture.test': [{ address: '127.0.0.1', family: 4 }] });
    const result = await safeFetch(`http://fixture.test:${site.port}/page`, { lookup, allowLoopback: true });
    expect(result.body.toString()).toContain('hello');
  });

  it('follows a short redirect chain and records it', async () => {
    const result = await safeFetch(`${site.origin}/r1`, { allowLoopback: true });
    expect(result.url).toBe(`${site.origin}/page`);
    expect(result.redirects).toEqual([`${site.origin}/r1`, `${site.origin}/r2`, `${site.origin}/page`]);
  });

  it('refuses more than 5 redirects', async () => {
    const refused = await failure(safeFetch(`${site.origin}/loop`, { allowLoopback: true }));
    expect(refused.code).toBe('too-many-redirects');
    expect(hits).toBe(6);
  });

  it.each([
    ['/to-metadata', 'forbidden-address'],
    ['/to-private-hex', 'forbidden-address'],
    ['/to-mapped', 'forbidden-address'],
    ['/chain-to-private', 'forbidden-address'],
    ['/to-file', 'unsupported-scheme'],
    ['/to-creds', 'credentials-in-url'],
  ])('re-checks every redirect hop: %s is refused (%s)', async (path, code) => {
    const refused = await failure(safeFetch(`${site.origin}${path}`, { allowLoopback: true }));
    expect(refused.code).toBe(code);
  });

  it('refuses non-http schemes and credentials in the first URL', async () => {
    expect((await failure(safeFetch('ftp://example.com/'))).code).toBe('unsupported-scheme');
    expect((await failure(safeFetch('file:///etc/passwd'))).code).toBe('unsupported-scheme');
    expect((await failure(safeFetch('http://a:b@example.com/'))).code).toBe('credentials-in-url');
    expect((await failure(safeFetch('not a url'))).code).toBe('invalid-url');
    expect((await failure(safeFetch('http://1.2.3.4.5/'))).code).toBe('invalid-url');
  });

  it('refuses an oversize body while streaming and by declared length', async () => {
    const streamed = await failure(safeFetch(`${site.origin}/big`, { allowLoopback: true }));
    expect(streamed.code).toBe('too-large');
    expect(streamed.message).toBe('The page is larger than 2 MB and was not read.');
    const declared = await failure(safeFetch(`${site.origin}/big-declared`, { allowLoopback: true }));
    expect(declared.code).toBe('too-large');
    const small = await failure(safeFetch(`${site.origin}/page`, { allowLoopback: true, maxBytes: 10 }));
    expect(small.code).toBe('too-large');
  });

  it('times out a slow server (headers or body)', async () => {
    const started = Date.now();
    const headers = await failure(safeFetch(`${site.origin}/slow`, { allowLoopback: true, timeoutMs: 200 }));
    expect(headers.code).toBe('timeout');
    const body = await failure(safeFetch(`${site.origin}/slow-body`, { allowLoopback: true, timeoutMs: 200 }));
    expect(body.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a content type that was not asked for', async () => {
    const json = await failure(safeFetch(`${site.origin}/json`, { allowLoopback: true }));
    expect(json.code).toBe('unsupported-content-type');
    expect(json.message).toContain('application/json');
    expect((await failure(safeFetch(`${site.origin}/no-type`, { allowLoopback: true }))).code).toBe('unsupported-content-type');
    const image = await safeFetch(`${site.origin}/png`, { allowLoopback: true, accept: IMAGE_TYPES });
    expect(image.contentType).toBe('image/png');
    expect((await failure(safeFetch(`${site.origin}/page`, { allowLoopback: true, accept: ['image/*'] }))).code).toBe('unsupported-content-type');
  });

  it('reports an error status', async () => {
    const error = await failure(safeFetch(`${site.origin}/missing`, { allowLoopback: true }));
    expect(error.code).toBe('http-status');
    expect(error.message).toBe('The website answered with status 500.');
  });

  it('decodes the body with the declared charset', async () => {
    const result = await safeFetch(`${site.origin}/latin1`, { allowLoopback: true });
    expect(decodeBody(result)).toBe('<p>café</p>');
  });
});
