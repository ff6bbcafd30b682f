import { randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export type TokenType = 'access' | 'refresh' | 'verify' | 'reset' | 'email-change' | 'email-cancel';

export interface TokenClaims {
  /** user id */
  sub: string;
  token_type: TokenType;
  jti: string;
  exp: number;
  iat: number;
  [extra: string]: unknown;
}

export const ACCESS_TTL_SECONDS = 5 * 60;
export const REFRESH_TTL_SECONDS = 24 * 60 * 60;
export const VERIFY_TTL_SECONDS = 3 * 24 * 60 * 60;
export const RESET_TTL_SECONDS = 60 * 60;
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 60 * 60;
/** A refresh token used again within this many seconds (another tab racing) is not a theft. */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/** The session (refresh-token family) a token belongs to; tokens from before sessions have none. */
export function sessionId(claims: TokenClaims): string | undefined {
  return typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : undefined;
}

/** The session generation a token was issued for (tokens from before versions count as 0). */
export function tokenVersion(claims: TokenClaims): number {
  return typeof claims.ver === 'number' ? claims.ver : 0;
}

export class InvalidTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid' | 'wrong-type') {
    super(reason === 'expired' ? 'Token is expired' : 'Token is invalid');
  }
}

/**
 * Signs and verifies HS256 JWTs with the server's SECRET_KEY. Each token carries its type,
 * so a refresh token is never accepted as an access token and vice versa.
 */
export class TokenService {
  /**
   * The HMAC key, imported once: given the raw bytes, jose imports them into a CryptoKey on every
   * call, about a third of a verify's cost (tests/bench/catalogue-throughput.ts times the route).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    secret: string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async sign(type: TokenType, userId: number, ttlSeconds: number, extra: Record<string, unknown> = {}): Promise<{ token: string; jti: string; exp: number }> {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + ttlSeconds;
    const jti = randomUUID();
    const token = await new SignJWT({ ...extra, token_type: type })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await this.key);
    return { token, jti, exp };
  }

  /**
   * A login's pair: access and refresh tokens of the user's current session generation, in one
   * session (`sid`, the refresh-token family: a refresh rotates within it, log-out revokes it).
   */
  async sessionPair(userId: number, version: number, session: string = randomUUID()): Promise<{ access: string; refresh: string }> {
    const [access, refresh] = await Promise.all([
      this.sign('access', userId, ACCESS_TTL_SECONDS, { ver: version, sid: session }),
      this.sign('refresh', userId, REFRESH_TTL_SECONDS, { ver: version, sid: session }),
    ]);
    return { access: access.token, refresh: refresh.token };
  }

  async verify(token: string, type: TokenType): Promise<TokenClaims & { userId: number }> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        // a token without an expiry (or id, subject, issue time) is never accepted
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
        currentDate: new Date(this.now()),
      }));
    } catch (e) {
      throw new InvalidTokenError(e instanceof joseErrors.JWTExpired ? 'expired' : 'invalid');
    }
    if (payload.token_type !== type) throw new InvalidTokenError('wrong-type');
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId)) throw new InvalidTokenError('invalid');
    return { ...(payload as unknown as TokenClaims), userId };
  }
}
