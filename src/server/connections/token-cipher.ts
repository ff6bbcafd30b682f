import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { TokenKeyMissingError, TokenTamperedError } from './errors';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

interface RingKey {
  id: string;
  key: Buffer;
}

/** The token-store key of one secret: HKDF-SHA256, so SECRET_KEY itself never encrypts anything. */
function deriveKey(secret: string): RingKey {
  const key = Buffer.from(hkdfSync('sha256', secret, 'flowmatic/connections', 'connection token store v1', 32));
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return { id, key };
}

/**
 * Seals connection tokens at rest with AES-256-GCM: a fresh 96-bit nonce per value, the key id
 * in the sealed text, and associated data binding the value to its record (a sealed token copied
 * onto another row fails). The ring is the current SECRET_KEY first, then earlier ones, so a
 * rotated SECRET_KEY still opens old values; `isCurrent` tells the store to re-seal them.
 */
export class TokenCipher {
  private readonly ring: RingKey[];

  constructor(secrets: string[]) {
    if (!secrets.length || !secrets[0]) throw new Error('The token cipher needs at least one secret key.');
    this.ring = secrets.map(deriveKey);
  }

  /** Seals `plain` for the record named by `context` (e.g. 'connection:300001'). */
  seal(plain: string, context: string): string {
    const { id, key } = this.ring[0];
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, id, nonce.toString('base64url'), body.toString('base64url')].join('.');
  }

  /** Opens a sealed value of `context`; throws TokenKeyMissingError or TokenTamperedError. */
  open(sealed: string, context: string): string {
    const [version, id, nonceText, bodyText, extra] = sealed.split('.');
    if (version !== VERSION || !id || !nonceText || !bodyText || extra !== undefined) throw new TokenTamperedError();
    const entry = this.ring.find((k) => k.id === id);
    if (!entry) throw new TokenKeyMissingError();
    const nonce = Buffer.from(nonceText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new TokenTamperedError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, nonce);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new TokenTamperedError();
    }
  }

  /** Whether a sealed value uses the current key (false: re-seal it). */
  isCurrent(sealed: string): boolean {
    return sealed.split('.')[1] === this.ring[0].id;
  }
}
