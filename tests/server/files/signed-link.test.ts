import { InvalidDownloadLinkError, InvalidFileRequestError, signDownload, verifyDownload } from '../../../src/server/files';

const SECRET = 'a-test-secret-of-enough-length';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const grant = { owner: 7, bucket: 'uploads', key: '2f1c7a4e-0000-4000-8000-000000000000.pdf', expiresInSec: 300 };

describe('signed download links', () => {
  it('round-trips what it grants', () => {
    const token = signDownload(grant, SECRET, T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyDownload(token, SECRET, T0 + 1000)).toEqual({ owner: 7, bucket: 'uploads', key: grant.key, expiresAt: T0 / 1000 + 300 });
  });

  it('expires', () => {
    const token = signDownload(grant, SECRET, T0);
    expect(() => verifyDownload(token, SECRET, T0 + 299_000)).not.toThrow();
    expect(() => verifyDownload(token, SECRET, T0 + 300_000)).toThrow('This download link has expired; ask for a new one.');
  });

  it('refuses a token whose payload was changed (another owner) even with the old signature', () => {
    const token = signDownload(grant, SECRET, T0);
    const [, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ o: 8, b: 'uploads', k: grant.key, e: T0 / 1000 + 300 })).toString('base64url');
    expect(() => verifyDownload(`${forged}.${sig}`, SECRET, T0)).toThrow(InvalidDownloadLinkError);
    expect(() => verifyDownload(`${forged}.${sig}`, SECRET, T0)).toThrow('This download link is not valid.');
  });

  it('refuses a longer expiry forged into the payload', () => {
    const token = signDownload(grant, SECRET, T0);
    const [, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ o: 7, b: 'uploads', k: grant.key, e: T0 / 1000 + 99_999 })).toString('base64url');
    expect(() => verifyDownload(`${forged}.${sig}`, SECRET, T0 + 400_000)).toThrow(/not valid/);
  });

  it('refuses a changed signature, another secret and malformed tokens', () => {
    const token = signDownload(grant, SECRET, T0);
    const [body, sig] = token.split('.');
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(() => verifyDownload(`${body}.${flipped}`, SECRET, T0)).toThrow(InvalidDownloadLinkError);
    expect(() => verifyDownload(token, 'another-secret-of-enough-length', T0)).toThrow(InvalidDownloadLinkError);
    for (const bad of ['', 'abc', 'a.b.c', `${body}.`, `${body}.${sig}=`, 'x'.repeat(5000)]) {
      expect(() => verifyDownload(bad, SECRET, T0)).toThrow(InvalidDownloadLinkError);
    }
  });

  it('refuses a weak secret and absurd expiries as configuration errors', () => {
    expect(() => signDownload(grant, 'short', T0)).toThrow(InvalidFileRequestError);
    expect(() => signDownload({ ...grant, expiresInSec: 0 }, SECRET, T0)).toThrow(/must expire/);
    expect(() => signDownload({ ...grant, expiresInSec: 30 * 86400 }, SECRET, T0)).toThrow(/must expire/);
  });
});
