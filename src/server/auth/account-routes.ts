import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import { userUpdateSchema } from '../../core/account-schemas';
import changePasswordSchema from '../../../schemas/account/change-password.schema.json';
import type { UsersTable } from '../db/schema';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors';
import { queueMail } from '../mail';
import type { AuthDeps } from './deps';
import { confirmNewEmailEmail, emailChangedEmail } from './emails';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens, verifyOneTimeToken } from './one-time-tokens';
import { EMAIL_CHANGE_TTL_SECONDS, type TokenClaims } from './token-service';
import { emailTaken, isUniqueViolation, normaliseEmail, profileRole } from './users';

export const EMAIL_TAKEN = 'An account with this email already exists.';
export const DETAILS_UPDATED = 'Your details have been updated.';
export const PASSWORD_CHANGED = 'Your password has been changed.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';
export const PASSWORD_NEEDED_FOR_EMAIL = 'Enter your current password to change your e-mail address.';
export const CONFIRM_NEW_EMAIL = 'Check your new address to confirm the change.';
export const EMAIL_CHANGE_CONFIRMED = 'Your e-mail address has been changed. From now on, log in with the new address.';
export const EMAIL_CHANGE_CANCELLED = 'The change of your e-mail address has been cancelled. Your account keeps its address.';
export const EMAIL_CHANGE_LINK_INVALID = 'This link is invalid, has expired or has already been used.';

interface UserUpdateBody {
  name: string;
  currency: string;
  time_zone: string;
  /** read-only: accepted (the client sends it) and ignored */
  role: number;
  email?: string;
  /** the current password: required when the e-mail changes */
  password?: string;
}

/** The {userId} of the path, which must be the caller's own id. */
function ownUserId(request: FastifyRequest): number {
  const raw = (request.params as { userId?: string }).userId ?? '';
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) throw badRequest('The user id must be a whole number.');
  const id = Number(raw);
  if (id !== request.user!.id) throw forbidden('You can only view or change your own account.');
  return id;
}

/** My Account: the profile, its update, and the password change. Own account only. */
export function registerAccountRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const { db, hasher, queue } = deps;

  app.get('/api/platform/users/:userId/', { auth: 'user' }, async (request) => {
    const id = ownUserId(request);
    const row = await db
      .selectFrom('users')
      .select(['name', 'email', 'role', 'currency', 'time_zone', 'company_name', 'created_at', 'pending_email'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('User not found.');
    return {
      Name: row.name,
      Email: row.email,
      Role: profileRole(row.role),
      Currency: row.currency,
      Time_zone: row.time_zone,
      Company: { name: row.company_name },
      Creation_date: new Date(row.created_at).toISOString(),
      // a new address waiting for its confirmation (only while there is one)
      ...(row.pending_email ? { Pending_email: row.pending_email } : {}),
      status: 'success',
    };
  });

  /**
   * The details update. A new e-mail address needs the current password, and takes effect only
   * once confirmed by the link sent to it; the current address is told, with a cancel link.
   */
  app.put<{ Body: UserUpdateBody }>('/api/platform/users/:userId/', { auth: 'user', schema: { body: userUpdateSchema } }, async (request) => {
    const id = ownUserId(request);
    const body = request.body;
    const name = body.name.trim();
    if (!name) throw badRequest('Name must not be empty.');
    const current = await db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', id).executeTakeFirstOrThrow();
    let newEmail: string | undefined;
    if (body.email !== undefined && normaliseEmail(body.email) !== normaliseEmail(current.email)) {
      newEmail = normaliseEmail(body.email);
      if (await emailTaken(db, newEmail, id)) throw new HttpError(409, EMAIL_TAKEN);
      if (body.password === undefined || body.password === '') throw badRequest(PASSWORD_NEEDED_FOR_EMAIL);
      if (!(await hasher.verify(current.password_hash, body.password))) throw badRequest(WRONG_CURRENT_PASSWORD);
    }
    const now = deps.now();
    const links = await db.transaction().execute(async (trx) => {
      const changes: Updateable<UsersTable> = { name, currency: body.currency, time_zone: body.time_zone, updated_at: now };
      if (!newEmail) {
        await trx.updateTable('users').set(changes).where('id', '=', id).execute();
        return undefined;
      }
      // one change at a time: links of an earlier request stop working
      await retireOneTimeTokens(trx, id, ['email-change', 'email-cancel'], now);
      await trx
        .updateTable('users')
        .set({ ...changes, pending_email: newEmail })
        .where('id', '=', id)
        .execute();
      const confirm = await issueOneTimeToken(trx, deps.tokens, 'email-change', id, EMAIL_CHANGE_TTL_SECONDS, { email: newEmail });
      const cancel = await issueOneTimeToken(trx, deps.tokens, 'email-cancel', id, EMAIL_CHANGE_TTL_SECONDS, { email: newEmail });
      return { confirm, cancel };
    });
    if (newEmail && links) {
      request.log.info({ userId: id }, 'e-mail change requested');
      const base = `${deps.config.publicUrl}/api/platform/email-change`;
      await queueMail(queue, confirmNewEmailEmail(newEmail, name, `${base}/confirm?token=${encodeURIComponent(links.confirm)}`));
      // tell the current address, so that a hijacked session cannot move the account quietly
      await queueMail(queue, emailChangedEmail(current.email, name, newEmail, `${base}/cancel?token=${encodeURIComponent(links.cancel)}`));
      return { status: 'success', message: CONFIRM_NEW_EMAIL, pending_email: newEmail };
    }
    return { status: 'success', message: DETAILS_UPDATED };
  });

  registerEmailChangeLinks(app, deps);

  app.post<{ Body: { password: string; newpassword: string } }>(
    '/api/platform/userChangePassword',
    { auth: 'user', schema: { body: changePasswordSchema }, config: deps.rateLimited },
    async (request) => {
      const userId = request.user!.id;
      const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
      if (!(await hasher.verify(row.password_hash, request.body.password))) throw badRequest(WRONG_CURRENT_PASSWORD);
      const hash = await hasher.hash(request.body.newpassword);
      // a new session generation signs every other session out; this one gets fresh tokens
      const { token_version } = await db
        .updateTable('users')
        .set((eb) => ({ password_hash: hash, updated_at: deps.now(), token_version: eb('token_version', '+', 1) }))
        .where('id', '=', userId)
        .returning('token_version')
        .executeTakeFirstOrThrow();
      // links mailed before the change (reset, verification, e-mail change) stop working
      await retireOneTimeTokens(db, userId, 'all', deps.now());
      request.log.info({ userId }, 'password changed');
      return { status: 'success', message: PASSWORD_CHANGED, ...(await deps.tokens.sessionPair(userId, token_version)) };
    },
  );
}

/** A small page for the e-mailed links (no script: the button posts a form to the same address). */
function linkPage(title: string, message: string, action?: { label: string; token: string; path: string }, loginUrl?: string): string {
  const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  const form = action
    ? `<form method="post" action="${esc(action.path)}"><input type="hidden" name="token" value="${esc(action.token)}"><button type="submit">${esc(action.label)}</button></form>`
    : '';
  const login = loginUrl ? `<p><a href="${esc(loginUrl)}">Go to the login page</a></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title></head><body style="font-family:Segoe UI,Helvetica,Arial,sans-serif;max-width:560px;margin:48px auto;padding:0 16px;color:#242424"><h1 style="font-size:22px">${esc(title)}</h1><p>${esc(message)}</p>${form}${login}</body></html>`;
}

/**
 * The links of an e-mail change: GET shows a page with one button (so that a mail scanner
 * opening the link changes nothing), its POST confirms the new address or cancels the change.
 */
function registerEmailChangeLinks(parent: FastifyInstance, deps: AuthDeps): void {
  // a scope of their own, so the url-encoded parser reaches these two pages and no other route
  void parent.register(async (app) => emailChangeLinkRoutes(app, deps));
}

function emailChangeLinkRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const { db, tokens, config } = deps;
  // the pages' forms post url-encoded fields (this scope only)
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }
  const base = '/api/platform/email-change';
  const loginUrl = `${config.publicUrl}/login`;

  for (const kind of ['confirm', 'cancel'] as const) {
    const purpose = kind === 'confirm' ? 'email-change' : 'email-cancel';
    const title = kind === 'confirm' ? 'Confirm your new e-mail address' : 'Cancel the e-mail change';

    app.get<{ Querystring: { token?: string } }>(`${base}/${kind}`, async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      reply.type('text/html').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      try {
        await verifyOneTimeToken(tokens, token, purpose);
      } catch {
        return reply.code(400).send(linkPage(title, EMAIL_CHANGE_LINK_INVALID, undefined, loginUrl));
      }
      const label = kind === 'confirm' ? 'Confirm my new address' : 'Cancel the change';
      const message =
        kind === 'confirm' ? 'Press the button to make this address the one you log in with.' : 'Press the button to keep the current address of your account.';
      return reply.send(linkPage(title, message, { label, token, path: `${base}/${kind}` }));
    });

    app.post<{ Body: { token?: string } }>(`${base}/${kind}`, { config: deps.rateLimited }, async (request, reply) => {
      reply.type('text/html').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      const token = typeof request.body?.token === 'string' ? request.body.token : '';
      let claims: TokenClaims & { userId: number };
      try {
        claims = await verifyOneTimeToken(tokens, token, purpose);
      } catch {
        return reply.code(400).send(linkPage(title, EMAIL_CHANGE_LINK_INVALID, undefined, loginUrl));
      }
      const now = deps.now();
      const outcome = await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['pending_email']).where('id', '=', claims.userId).executeTakeFirst();
        // the link belongs to the change still waiting, not to an earlier one
        if (!user || !user.pending_email || user.pending_email !== claims.email) return 'invalid' as const;
        if (!(await consumeOneTimeToken(trx, claims, purpose, now))) return 'invalid' as const;
        if (kind === 'cancel') {
          await trx.updateTable('users').set({ pending_email: null, updated_at: now }).where('id', '=', claims.userId).execute();
          await retireOneTimeTokens(trx, claims.userId, ['email-change', 'email-cancel'], now);
          return 'done' as const;
        }
        if (await emailTaken(trx, user.pending_email, claims.userId)) return 'taken' as const;
        try {
          await trx.updateTable('users').set({ email: user.pending_email, pending_email: null, updated_at: now }).where('id', '=', claims.userId).execute();
        } catch (e) {
          if (isUniqueViolation(e)) return 'taken' as const;
          throw e;
        }
        // a credential changed: every link mailed before (reset, verification, this change) retires
        await retireOneTimeTokens(trx, claims.userId, 'all', now);
        return 'done' as const;
      });
      if (outcome === 'invalid') return reply.code(400).send(linkPage(title, EMAIL_CHANGE_LINK_INVALID, undefined, loginUrl));
      if (outcome === 'taken') return reply.code(409).send(linkPage(title, EMAIL_TAKEN, undefined, loginUrl));
      request.log.info({ userId: claims.userId }, kind === 'confirm' ? 'e-mail change confirmed' : 'e-mail change cancelled');
      return reply.send(linkPage(title, kind === 'confirm' ? EMAIL_CHANGE_CONFIRMED : EMAIL_CHANGE_CANCELLED, undefined, loginUrl));
    });
  }
}
