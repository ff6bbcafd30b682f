import ipaddr from 'ipaddr.js';

/**
 * Address guard for server-side fetches of user-supplied URLs (SSRF defence).
 *
 * Every address is judged by what it resolves to, not by how it is written: numeric host forms
 * (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`), bracketed IPv6, IPv4
 * embedded in IPv6 (mapped, translated, NAT64, 6to4, Teredo) are all normalised first.
 */

/** Why an address may not be contacted. */
export type ForbiddenReason =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'carrier-grade-nat'
  | 'unspecified'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'unique-local'
  | 'site-local'
  | 'ipv4-compatible'
  | 'local-nat64'
  | 'not-an-address';

/** The result of reading a URL host: an IP literal (canonical text) or a domain name to resolve. */
export type HostLiteral = { kind: 'ipv4'; address: string } | { kind: 'ipv6'; address: string } | { kind: 'domain'; name: string };

/** A host that looks numeric but is not a valid address (the URL parser would reject it too). */
export class InvalidHostError extends Error {
  constructor(host: string) {
    super(`"${host}" is not a valid web address host.`);
    this.name = 'InvalidHostError';
  }
}

/** Cloud instance-metadata endpoints, named specifically so logs say what was attempted. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);

/** Parses one IPv4 part the way the WHATWG URL parser does: 0x… hex, 0… octal, else decimal. */
function parseIpv4Part(part: string): number | undefined {
  let radix = 10;
  let digits = part;
  if (/^0x/i.test(part)) {
    radix = 16;
    digits = part.slice(2);
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8;
    digits = part.slice(1);
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return undefined;
  const value = parseInt(digits, radix);
  return Number.isSafeInteger(value) ? value : Number.POSITIVE_INFINITY;
}

/** WHATWG "ends in a number": decides whether a host must be parsed as IPv4. */
function endsInNumber(parts: string[]): boolean {
  const last = parts[parts.length - 1];
  if (/^[0-9]+$/.test(last)) return true;
  return /^0x[0-9a-f]*$/i.test(last);
}

/** Turns a 32-bit number into dotted-quad text. */
function ipv4FromNumber(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/** WHATWG IPv4 parser (equivalent to inet_aton for 1–4 parts with mixed radixes). */
function parseIpv4Host(host: string): string {
  const parts = host.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (parts.length > 4 || parts.some((p) => p === '')) throw new InvalidHostError(host);
  const numbers = parts.map(parseIpv4Part);
  if (numbers.some((n) => n === undefined)) throw new InvalidHostError(host);
  const values = numbers as number[];
  const last = values[values.length - 1];
  if (values.slice(0, -1).some((n) => n > 255)) throw new InvalidHostError(host);
  if (last >= 256 ** (5 - values.length)) throw new InvalidHostError(host);
  let result = last;
  values.slice(0, -1).forEach((n, i) => {
    result += n * 256 ** (3 - i);
  });
  return ipv4FromNumber(result);
}

/**
 * Reads a URL host (as typed or as `URL.hostname` gives it) and says whether it is an IP literal,
 * normalising every numeric form the WHATWG URL parser / inet_aton accept, so that `0x7f.1`,
 * `2130706433`, `0177.0.0.1` and `[::ffff:7f00:1]` are all recognised as loopback.
 * Throws InvalidHostError for a numeric-looking host that is not a valid address.
 */
export function parseHostLiteral(rawHost: string): HostLiteral {
  const host = rawHost.trim().toLowerCase();
  if (host === '') throw new InvalidHostError(rawHost);
  const bracketed = host.startsWith('[') && host.endsWith(']');
  if (bracketed || host.includes(':')) {
    const inner = (bracketed ? host.slice(1, -1) : host).replace(/%.*$/, '');
    if (!ipaddr.IPv6.isValid(inner)) throw new InvalidHostError(rawHost);
    return { kind: 'ipv6', address: ipaddr.IPv6.parse(inner).toString() };
  }
  const parts = host.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (endsInNumber(parts)) return { kind: 'ipv4', address: parseIpv4Host(host) };
  return { kind: 'domain', name: host.replace(/\.$/, '') };
}

/** Judges an IPv4 address given as parsed parts. */
function judgeIpv4(address: ipaddr.IPv4): ForbiddenReason | undefined {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(text)) return 'metadata';
  if (address.octets[0] === 0) return 'unspecified'; // 0.0.0.0/8 reaches this host on Linux
  switch (address.range()) {
    case 'unicast':
      return undefined;
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    case 'carrierGradeNat':
      return 'carrier-grade-nat';
    case 'unspecified':
      return 'unspecified';
    case 'broadcast':
      return 'broadcast';
    case 'multicast':
      return 'multicast';
    default:
      return 'reserved';
  }
}

/** IPv4 from two 16-bit IPv6 groups. */
function ipv4FromGroups(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Judges an IPv6 address, including every form that embeds an IPv4 address. */
function judgeIpv6(address: ipaddr.IPv6): ForbiddenReason | undefined {
  const p = address.parts;
  if (METADATA_ADDRESSES.has(address.toString())) return 'metadata';
  // ipaddr's typings lag its tables (e.g. 'deprecatedSiteLocal'), so the range is read as a string.
  const range: string = address.range();
  switch (range) {
    case 'unicast':
      // ::a.b.c.d (IPv4-compatible, deprecated) is not special to ipaddr but is to some stacks.
      if (p.slice(0, 6).every((g) => g === 0)) return 'ipv4-compatible';
      return undefined;
    case 'ipv4Mapped':
      return judgeIpv4(address.toIPv4Address());
    case 'rfc6145':
      return judgeIpv4(ipv4FromGroups(p[6], p[7]));
    case 'rfc6052':
      // 64:ff9b:1::/48 is local-use NAT64; 64:ff9b::/96 embeds the target in the last 32 bits.
      if (p[2] === 1) return 'local-nat64';
      return judgeIpv4(ipv4FromGroups(p[6], p[7]));
    case '6to4':
      return judgeIpv4(ipv4FromGroups(p[1], p[2]));
    case 'teredo':
      return judgeIpv4(ipv4FromGroups(p[2], p[3])) ?? judgeIpv4(ipv4FromGroups(p[6] ^ 0xffff, p[7] ^ 0xffff));
    case 'loopback':
      return 'loopback';
    case 'unspecified':
      return 'unspecified';
    case 'linkLocal':
      return 'link-local';
    case 'multicast':
      return 'multicast';
    case 'uniqueLocal':
      return 'unique-local';
    case 'deprecatedSiteLocal':
      return 'site-local';
    default:
      return 'reserved';
  }
}

/**
 * Says why an address must not be contacted, or undefined when it is a public unicast address.
 * Accepts any written form of an IP address (see parseHostLiteral); anything that is not an IP
 * address is refused as 'not-an-address' so the guard fails closed.
 */
export function isForbiddenAddress(ip: string): ForbiddenReason | undefined {
  let literal: HostLiteral;
  try {
    literal = parseHostLiteral(ip);
  } catch {
    return 'not-an-address';
  }
  if (literal.kind === 'domain') return 'not-an-address';
  if (literal.kind === 'ipv4') return judgeIpv4(ipaddr.IPv4.parse(literal.address));
  return judgeIpv6(ipaddr.IPv6.parse(literal.address));
}

/** True when the address is loopback (127.0.0.0/8, ::1 or their IPv4-mapped forms). */
export function isLoopbackAddress(ip: string): boolean {
  return isForbiddenAddress(ip) === 'loopback';
}

/** A sentence for users explaining a refusal. */
export function describeForbiddenReason(reason: ForbiddenReason): string {
  switch (reason) {
    case 'loopback':
      return 'That address points to this server itself and cannot be read.';
    case 'metadata':
      return 'That address points to a cloud metadata service and cannot be read.';
    case 'not-an-address':
      return 'That address could not be understood as a network address.';
    case 'multicast':
    case 'broadcast':
      return 'That address is a broadcast or multicast address and cannot be read.';
    case 'reserved':
    case 'unspecified':
    case 'ipv4-compatible':
      return 'That address is reserved and cannot be read.';
    default:
      return 'That address points to a private network and cannot be read.';
  }
}
