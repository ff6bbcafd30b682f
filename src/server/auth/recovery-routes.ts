import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import registerSchema from '../../../schemas/auth/register.schema.json';
import type { RegisterPayload } from '../../core/wire-types';
import emailVerifySchema from '../../../schemas/auth/email-verify.schema.json';
import forgetPasswordSchema from '../../../schemas/auth/forget-password.schema.json';
import resetPasswordSchema from '../../../schemas/auth/reset-password.schema.json';
import checkResetLinkSchema from '../../../schemas/auth/check-reset-link.schema.json';
import { HttpError, badRequest } from '../http/errors';
import { queueMail } from '../mail';
import type { AuthDeps } from './deps';
import { passwordResetEmail, verificationEmail } from './emails';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens, tokenFromHeader, verifyOneTimeToken } from './one-time-tokens';
import { InvalidTokenError, RESET_TTL_SECONDS, VERIFY_TTL_SECONDS, type TokenClaims } from './token-service';
import { emailTaken, findUserByEmail, isUniqueViolation, normaliseEmail } from './users';

export const ACCOUNT_CREATED = 'Account created. Check your email to verify your account.';
export const DUPLICATE_ACCOUNT = 'An account with this email already exists.';
export const VERIFIED = 'Account verified, please login.';
export const VERIFY_FAILED = 'Account verification failed, please try again.';
export const RESET_LINK_SENT = 'If an account exists for that address, we have sent a link to reset the password.';
export const PASSWORD_RESET = 'Your password has been reset. Please log in.';
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired.';
export const RESET_LINK_EXPIRED = 'This password reset link has expired.';
export const RESET_LINK_USED = 'This password reset link has already been used.';

/** Why a reset link can no longer be used, as the reset page's check tells it. */
export type ResetLinkState = { status: 'success'; valid: true } | { status: 'success'; valid: false; reason: 'expired' | 'used' | 'invalid'; message: string };

type RegisterBody = RegisterPayload;

/** The `access` of a reset link is the user id, base64url-encoded (as Django's uidb64). */
export function encodeAccess(userId: number): string {
  return Buffer.from(String(userId), 'utf8').toString('base64url');
}

export function decodeAccess(access: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(access)) return undefined;
  const decoded = Buffer.from(access, 'base64url').toString('utf8');
  return /^\d{1,10}$/.test(decoded) ? Number(decoded) : undefined;
}

export const PASSWORD_RESET_JOB = 'auth.password-reset-request';

export interface PasswordResetRequest {
  email: string;
}

/**
 * The forgotten-password job: mails a reset link when the address has an account, and does
 * nothing otherwise (the route answered the same either way).
 */
export async function handlePasswordResetRequest(
  data: PasswordResetRequest,
  deps: Pick<AuthDeps, 'db' | 'tokens' | 'queue' | 'config'>,
): Promise<{ sent: boolean }> {
  const user = await findUserByEmail(deps.db, data.email);
  if (!user) return { sent: false };
  const token = await issueOneTimeToken(deps.db, deps.tokens, 'reset', user.id, RESET_TTL_SECONDS);
  const link =
    `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}` +
    `&access=${encodeAccess(user.id)}&username=${encodeURIComponent(user.email)}`;
  await queueMail(deps.queue, passwordResetEmail(user.email, user.name, link));
  return { sent: true };
}

/** Sign-up, e-mail verification, and the forgotten-password request and reset. */
export function registerRecoveryRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const { db, tokens, hasher, queue, config } = deps;

  app.post<{ Body: RegisterBody }>('/api/platform/register', { schema: { body: registerSchema }, config: deps.rateLimited }, async (request) => {
    const b = request.body;
    const email = normaliseEmail(b.email);
    if (normaliseEmail(b.username) !== email) throw badRequest('The username must be the same as the email address.');
    const name = b.name.trim();
    if (!name) throw badRequest('Please fill out all fields');
    const company = b.company.trim() || 'Unknown';
    if (await emailTaken(db, email)) throw badRequest(DUPLICATE_ACCOUNT);

    const passwordHash = await hasher.hash(b.password);
    let created: { id: number; token: string };
    try {
      // the user and its workspace in the automation provider exist together or not at all
      created = await db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('users')
          .values({ name, email, password_hash: passwordHash, role: b.role, company_name: company, is_verified: false })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('managed_users')
          .values({ user_id: user.id, external_id: `flowmatic-${randomUUID()}` })
          .execute();
        const token = await issueOneTimeToken(trx, tokens, 'verify', user.id, VERIFY_TTL_SECONDS);
        return { id: user.id, token };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw badRequest(DUPLICATE_ACCOUNT);
      throw e;
    }
    const link = `${config.publicUrl}/login?verify=true&email=${encodeURIComponent(email)}&token=${encodeURIComponent(created.token)}`;
    await queueMail(queue, verificationEmail(email, name, link));
    request.log.info({ userId: created.id }, 'account registered');
    return { status: 'success', id: created.id, message: ACCOUNT_CREATED };
  });

  app.post<{ Body: { email: string } }>('/api/platform/emailVerify', { schema: { body: emailVerifySchema }, config: deps.rateLimited }, async (request) => {
    const failed = () => new HttpError(401, VERIFY_FAILED);
    let claims: TokenClaims & { userId: number };
    try {
      claims = await verifyOneTimeToken(tokens, tokenFromHeader(request.headers.authorization), 'verify');
    } catch {
      throw failed();
    }
    const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', claims.userId).executeTakeFirst();
    if (!user || normaliseEmail(user.email) !== normaliseEmail(request.body.email)) throw failed();
    const verified = await db.transaction().execute(async (trx) => {
      const now = deps.now();
      if (!(await consumeOneTimeToken(trx, claims, 'verify', now))) return false;
      await trx.updateTable('users').set({ is_verified: true, updated_at: now }).where('id', '=', user.id).execute();
      return true;
    });
    if (!verified) throw failed();
    request.log.info({ userId: user.id }, 'account verified');
    return { status: 'success', message: VERIFIED };
  });

  app.post<{ Body: { email: string } }>(
    '/api/platform/forgetPassword',
    { schema: { body: forgetPasswordSchema }, config: deps.rateLimited },
    async (request) => {
      // the same work whether or not the account exists: one job, whose handler decides, so the
      // reply's timing tells nothing about the address
      await queue.add(PASSWORD_RESET_JOB, { email: normaliseEmail(request.body.email) } satisfies PasswordResetRequest, { attempts: 3, backoffMs: 2000 });
      return { status: 'success', message: RESET_LINK_SENT };
    },
  );

  // the reset page asks this when it opens, so that a dead link says so before anything is typed;
  // it reads the token's record and never uses it up
  app.post<{ Body: { access: string } }>(
    '/api/platform/checkResetLink',
    { schema: { body: checkResetLinkSchema }, config: deps.rateLimited },
    async (request): Promise<ResetLinkState> => {
      const dead = (reason: 'expired' | 'used' | 'invalid'): ResetLinkState => ({
        status: 'success',
        valid: false,
        reason,
        message: reason === 'expired' ? RESET_LINK_EXPIRED : reason === 'used' ? RESET_LINK_USED : RESET_LINK_INVALID,
      });
      let claims: TokenClaims & { userId: number };
      try {
        claims = await verifyOneTimeToken(tokens, tokenFromHeader(request.headers.authorization), 'reset');
      } catch (e) {
        return dead(e instanceof InvalidTokenError && e.reason === 'expired' ? 'expired' : 'invalid');
      }
      if (decodeAccess(request.body.access) !== claims.userId) return dead('invalid');
      const row = await db
        .selectFrom('one_time_tokens')
        .select(['used_at', 'expires_at'])
        .where('jti', '=', claims.jti)
        .where('user_id', '=', claims.userId)
        .where('purpose', '=', 'reset')
        .executeTakeFirst();
      if (!row) return dead('invalid');
      if (row.used_at !== null) return dead('used');
      if (new Date(row.expires_at).getTime() <= deps.now().getTime()) return dead('expired');
      return { status: 'success', valid: true };
    },
  );

  app.post<{ Body: { access: string; password: string } }>(
    '/api/platform/resetPassword',
    { schema: { body: resetPasswordSchema }, config: deps.rateLimited },
    async (request) => {
      const invalid = () => badRequest(RESET_LINK_INVALID);
      let claims: TokenClaims & { userId: number };
      try {
        claims = await verifyOneTimeToken(tokens, tokenFromHeader(request.headers.authorization), 'reset');
      } catch {
        throw invalid();
      }
      if (decodeAccess(request.body.access) !== claims.userId) throw invalid();
      const hash = await hasher.hash(request.body.password);
      const reset = await db.transaction().execute(async (trx) => {
        const now = deps.now();
        if (!(await consumeOneTimeToken(trx, claims, 'reset', now))) return false;
        // the link proved the mailbox is theirs: that verifies the account as well
        // a new session generation: every session (a thief's too) must log in again
        await trx
          .updateTable('users')
          .set((eb) => ({ password_hash: hash, is_verified: true, updated_at: now, token_version: eb('token_version', '+', 1) }))
          .where('id', '=', claims.userId)
          .execute();
        // a credential changed: every link mailed before (other resets, verification, e-mail change) retires
        await retireOneTimeTokens(trx, claims.userId, 'all', now);
        return true;
      });
      if (!reset) throw invalid();
      request.log.info({ userId: claims.userId }, 'password reset');
      return { status: 'success', message: PASSWORD_RESET };
    },
  );
}
