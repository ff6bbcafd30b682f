/**
 * What the browser build gives @rjsf/utils in place of fast-uri (webpack.config.ts aliases
 * `fast-uri` here; Node and the tests keep fast-uri): rjsf calls only `resolve` and `equal`, to
 * follow a `$ref` to an embedded `$id` in a JSON Schema 2020-12 bundle. Reference resolution as
 * RFC 3986 section 5.2 gives it, with the normalisation URIs are compared by (section 6.2.2:
 * scheme and host in lower case, dot segments removed, percent-encoded unreserved characters
 * decoded and the others' hex digits in upper case), in a twentieth of fast-uri's size.
 * tests/unit/forms/uri.test.ts checks it against fast-uri.
 */
interface Parts {
  scheme?: string;
  authority?: string;
  path: string;
  query?: string;
  fragment?: string;
}

const URI = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

function parse(uri: string): Parts {
  const m = URI.exec(uri)!;
  return { scheme: m[1], authority: m[2], path: m[3] ?? '', query: m[4], fragment: m[5] };
}

/** RFC 3986 5.2.4. */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  let input = path;
  while (input.length) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) {
      input = input.slice(3);
      out.pop();
    } else if (input === '/..') {
      input = '/';
      out.pop();
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = next === -1 ? input : input.slice(0, next);
      out.push(segment);
      input = input.slice(segment.length);
    }
  }
  return out.join('');
}

/**
 * Dot segments of a relative path (no scheme, authority or leading '/'), as fast-uri treats them:
 * a '..' with nothing left to remove stays, and a path that comes to nothing is './'.
 */
function relativeDotSegments(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  segments.forEach((s, i) => {
    const last = i === segments.length - 1;
    if (s === '.') {
      if (last) out.push('');
    } else if (s === '..') {
      if (out.length && out[out.length - 1] !== '..') {
        out.pop();
        if (last) out.push('');
      } else out.push('..');
    } else out.push(s);
  });
  const joined = out.join('/');
  return joined === '' && path !== '' ? './' : joined;
}

/** The path without dot segments: RFC 3986's way when absolute, fast-uri's when relative. */
function dotFree(p: Parts): string {
  return p.scheme !== undefined || p.authority !== undefined || p.path.startsWith('/') ? removeDotSegments(p.path) : relativeDotSegments(p.path);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodings of unreserved characters decoded, the others' hex digits in upper case. */
function normalizeEncoding(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

function serialize(p: Parts): string {
  let out = '';
  if (p.scheme !== undefined) out += `${p.scheme.toLowerCase()}:`;
  if (p.authority !== undefined) {
    const at = p.authority.lastIndexOf('@');
    const userinfo = at === -1 ? '' : p.authority.slice(0, at + 1);
    out += `//${normalizeEncoding(userinfo)}${normalizeEncoding(p.authority.slice(at + 1)).toLowerCase()}`;
  }
  out += normalizeEncoding(p.path);
  if (p.query !== undefined) out += `?${normalizeEncoding(p.query)}`;
  if (p.fragment !== undefined) out += `#${normalizeEncoding(p.fragment)}`;
  return out;
}

/** RFC 3986 5.2.2: the target of reference `ref` against base `base`. */
export function resolve(base: string, ref: string): string {
  const b = parse(base);
  const r = parse(ref);
  const t: Parts = { path: '' };
  if (r.scheme !== undefined) {
    Object.assign(t, { scheme: r.scheme, authority: r.authority, path: removeDotSegments(r.path), query: r.query });
  } else {
    if (r.authority !== undefined) {
      Object.assign(t, { authority: r.authority, path: removeDotSegments(r.path), query: r.query });
    } else {
      if (r.path === '') {
        t.path = b.path;
        t.query = r.query ?? b.query;
      } else {
        if (r.path.startsWith('/')) t.path = removeDotSegments(r.path);
        else {
          // 5.2.3: merge with the base's path
          const merged = b.authority !== undefined && b.path === '' ? `/${r.path}` : b.path.slice(0, b.path.lastIndexOf('/') + 1) + r.path;
          t.path = dotFree({ scheme: b.scheme, authority: b.authority, path: merged });
        }
        t.query = r.query;
      }
      t.authority = b.authority;
    }
    t.scheme = b.scheme;
  }
  t.fragment = r.fragment;
  return serialize(t);
}

/** Whether two URIs are the same once normalised. */
export function equal(a: string, b: string): boolean {
  const norm = (u: string) => {
    const p = parse(u);
    return serialize({ ...p, path: dotFree(p) });
  };
  return norm(a) === norm(b);
}

const uri = { resolve, equal };
export default uri;
