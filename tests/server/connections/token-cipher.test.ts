import { TokenCipher, TokenKeyMissingError, TokenTamperedError } from '../../../src/server/connections';

const A = 'first-secret-key-that-is-long-enough-000000';
const B = 'second-secret-key-that-is-long-enough-11111';

describe('TokenCipher (AES-256-GCM, key ring)', () => {
  it('seals with a fresh nonce each time and opens only for the same record', () => {
    const c = new TokenCipher([A]);
    const x = c.seal('ya29.token', 'connection:1');
    const y = c.seal('ya29.token', 'connection:1');
    expect(x).not.toBe(y);
    expect(x).not.toContain('ya29');
    expect(c.open(x, 'connection:1')).toBe('ya29.token');
    expect(() => c.open(x, 'connection:2')).toThrow(TokenTamperedError);
  });

  it('keeps old values readable after SECRET_KEY rotation (PREVIOUS_SECRET_KEYS) and tells which need re-sealing', () => {
    const sealed = new TokenCipher([A]).seal('refresh', 'connection:7');
    const rotated = new TokenCipher([B, A]);
    expect(rotated.open(sealed, 'connection:7')).toBe('refresh');
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('refresh', 'connection:7'))).toBe(true);
    expect(() => new TokenCipher([B]).open(sealed, 'connection:7')).toThrow(TokenKeyMissingError);
  });

  it('refuses tampered or malformed values with a clear error', () => {
    const c = new TokenCipher([A]);
    const sealed = c.seal('secret', 'ctx');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    expect(() => c.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), 'ctx')).toThrow(TokenTamperedError);
    for (const bad of ['', 'v1.x', 'v2.a.b.c', `${sealed}.extra`]) expect(() => c.open(bad, 'ctx')).toThrow(/integrity check|no longer configured/);
  });
});
