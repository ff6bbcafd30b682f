import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import userUpdateSchema from '../../../schemas/account/user-update.schema.json';
import changePasswordSchema from '../../../schemas/account/change-password.schema.json';
import type { UsersTable } from '../db/schema';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors';
import { queueMail } from '../mail';
import type { AuthDeps } from './deps';
import { emailChangedEmail } from './emails';
import { requireUser } from './guard';
import { emailTaken, isUniqueViolation, normaliseEmail, profileRole } from './users';

export const EMAIL_TAKEN = 'An account with this email already exists.';
export const DETAILS_UPDATED = 'Your details have been updated.';
export const PASSWORD_CHANGED = 'Your password has been changed.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';

interface UserUpdateBody {
  name: string;
  currency: string;
  time_zone: string;
  /** read-only: accepted (the client sends it) and ignored */
  role: number;
  email?: string;
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
  const { db, hasher, container } = deps;
  const signedIn = requireUser(container);

  app.get('/api/platform/users/:userId/', { preHandler: signedIn }, async (request) => {
    const id = ownUserId(request);
    const row = await db
      .selectFrom('users')
      .select(['name', 'email', 'role', 'currency', 'time_zone', 'company_name', 'created_at'])
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
      status: 'success',
    };
  });

  app.put<{ Body: UserUpdateBody }>('/api/platform/users/:userId/', { preHandler: signedIn, schema: { body: userUpdateSchema } }, async (request) => {
    const id = ownUserId(request);
    const body = request.body;
    const name = body.name.trim();
    if (!name) throw badRequest('Name must not be empty.');
    const current = await db.selectFrom('users').select(['email']).where('id', '=', id).executeTakeFirstOrThrow();
    const changes: Updateable<UsersTable> = { name, currency: body.currency, time_zone: body.time_zone, updated_at: deps.now() };
    let newEmail: string | undefined;
    if (body.email !== undefined && normaliseEmail(body.email) !== normaliseEmail(current.email)) {
      newEmail = normaliseEmail(body.email);
      if (await emailTaken(db, newEmail, id)) throw new HttpError(409, EMAIL_TAKEN);
      changes.email = newEmail;
    }
    try {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw new HttpError(409, EMAIL_TAKEN);
      throw e;
    }
    if (newEmail) {
      request.log.info({ userId: id }, 'e-mail address changed');
      // tell the previous address, so that a hijacked session cannot move the account quietly
      await queueMail(container, emailChangedEmail(current.email, name, newEmail));
    }
    return { status: 'success', message: DETAILS_UPDATED };
  });

  app.post<{ Body: { password: string; newpassword: string } }>(
    '/api/platform/userChangePassword',
    { preHandler: signedIn, schema: { body: changePasswordSchema }, config: deps.rateLimited },
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
      request.log.info({ userId }, 'password changed');
      return { status: 'success', message: PASSWORD_CHANGED, ...(await deps.tokens.sessionPair(userId, token_version)) };
    },
  );
}
