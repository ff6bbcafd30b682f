import { isForbiddenAddress, parseHostLiteral, InvalidHostError } from '../../../src/server/web-fetch/address-guard';

/** Every written form of a non-public address, with the reason it must be refused for. */
const FORBIDDEN: Array<[string, string]> = [
  // loopback, every spelling
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['2130706433', 'loopback'], // decimal
  ['0177.0.0.1', 'loopback'], // octal
  ['0x7f.0x0.0x0.0x1', 'loopback'], // hex per part
  ['0x7f000001', 'loopback'], // hex whole
  ['017700000001', 'loopback'], // octal whole
  ['127.1', 'loopback'], // short form a.b
  ['127.0.1', 'loopback'], // short form a.b.c
  ['0x7f.1', 'loopback'], // mixed hex short
  ['127.0.0.1.', 'loopback'], // trailing dot
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped, dotted
  ['[::ffff:7f00:1]', 'loopback'], // IPv4-mapped, hex
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['::ffff:0:7f00:1', 'loopback'], // RFC 6145 translated
  ['64:ff9b::7f00:1', 'loopback'], // NAT64 embedding 127.0.0.1
  ['2002:7f00:1::', 'loopback'], // 6to4 embedding 127.0.0.1
  // private
  ['10.0.0.1', 'private'],
  ['10.1', 'private'], // short form
  ['167772161', 'private'], // decimal 10.0.0.1
  ['012.0.0.1', 'private'], // octal 10.0.0.1
  ['0xa.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['0xc0.0xa8.1.1', 'private'],
  ['3232235777', 'private'], // decimal 192.168.1.1
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:c0a8:101', 'private'],
  ['2002:c0a8:101::1', 'private'], // 6to4 embedding 192.168.1.1
  ['64:ff9b::10.0.0.1', 'private'], // NAT64 embedding 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'], // Teredo client 10.0.0.1 (obfuscated)
  // link-local and metadata
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['2852039166', 'metadata'], // decimal 169.254.169.254
  ['0xa9.0xfe.0xa9.0xfe', 'metadata'],
  ['0251.0376.0251.0376', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['[::ffff:a9fe:a9fe]', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['fe80::1', 'link-local'],
  ['[fe80::1%25eth0]', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  // carrier-grade NAT
  ['100.64.0.1', 'carrier-grade-nat'],
  ['100.127.255.254', 'carrier-grade-nat'],
  ['::ffff:100.64.0.1', 'carrier-grade-nat'],
  // unspecified, 0.0.0.0/8
  ['0.0.0.0', 'unspecified'],
  ['0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['::ffff:0.0.0.0', 'unspecified'],
  // broadcast, multicast, reserved
  ['255.255.255.255', 'broadcast'],
  ['4294967295', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['100::1', 'reserved'],
  // unique local and site local IPv6
  ['fd12:3456:789a::1', 'unique-local'],
  ['fc00::1', 'unique-local'],
  ['fec0::1', 'site-local'],
  // IPv4-compatible (deprecated) and local-use NAT64
  ['::7f00:1', 'ipv4-compatible'],
  ['64:ff9b:1::a00:1', 'local-nat64'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '134744072', // decimal 8.8.8.8
  '0x08.0x08.0x08.0x08',
  '172.32.0.1', // just outside 172.16/12
  '100.128.0.1', // just outside 100.64/10
  '2606:4700:4700::1111',
  '[2001:4860:4860::8888]',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 of a public address
  '2002:808:808::1', // 6to4 of a public address
];

describe('isForbiddenAddress', () => {
  it('covers at least 30 forbidden forms', () => {
    expect(FORBIDDEN.length).toBeGreaterThanOrEqual(30);
  });

  it.each(FORBIDDEN)('refuses %s (%s)', (address, reason) => {
    expect(isForbiddenAddress(address)).toBe(reason);
  });

  it.each(ALLOWED)('allows public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBeUndefined();
  });

  it('fails closed on things that are not addresses', () => {
    expect(isForbiddenAddress('example.com')).toBe('not-an-address');
    expect(isForbiddenAddress('1.2.3.4.5')).toBe('not-an-address');
    expect(isForbiddenAddress('')).toBe('not-an-address');
  });
});

describe('parseHostLiteral', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0x0.0x0.0x1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['0x', '0.0.0.0'],
  ])('reads %s as IPv4 %s, as the WHATWG URL parser does', (host, address) => {
    expect(parseHostLiteral(host)).toEqual({ kind: 'ipv4', address });
    expect(new URL(`http://${host}/`).hostname).toBe(address);
  });

  it('reads bracketed IPv6 and normalises it', () => {
    expect(parseHostLiteral('[0:0:0:0:0:ffff:7f00:0001]')).toEqual({ kind: 'ipv6', address: '::ffff:7f00:1' });
  });

  it('leaves domain names to DNS', () => {
    expect(parseHostLiteral('Example.COM.')).toEqual({ kind: 'domain', name: 'example.com' });
    expect(parseHostLiteral('1.2.3.example')).toEqual({ kind: 'domain', name: '1.2.3.example' });
  });

  it('rejects numeric hosts the URL parser rejects', () => {
    for (const host of ['1.2.3.4.5', '256.1.1.1', '0x1g.1', '1..2', '4294967296', '09.1.1.1']) {
      expect(() => parseHostLiteral(host)).toThrow(InvalidHostError);
      expect(() => new URL(`http://${host}/`)).toThrow();
    }
  });
});
