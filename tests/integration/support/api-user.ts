/**
 * A user of a server running in another process, made the way a person makes one: register,
 * follow the verification link from the outbox (DATA_DIR/outbox), log in. Then its recipes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';

/** A call to the server answered with an unexpected status. */
export class ApiCallError extends Error {
  constructor(what: string, status: number, body: unknown) {
    super(`${what} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    this.name = 'ApiCallError';
  }
}

export interface ApiUser {
  email: string;
  access: string;
  workatoId: number;
}

export interface RecipeRecord {
  recipe_id: number;
  combination: number;
  workato_webhook: string;
  job_succeeded_count: number;
  job_failed_count: number;
}

/** JSON call; throws ApiCallError unless the status is `expect`. */
export async function call<T = any>(base: string, method: string, target: string, opts: { token?: string; body?: unknown; expect?: number } = {}): Promise<T> {
  const res = await fetch(base + target, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  if (res.status !== (opts.expect ?? 200)) throw new ApiCallError(`${method} ${target}`, res.status, body);
  return body as T;
}

async function verificationLink(outbox: string, email: string, timeoutMs: number): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(outbox)) {
      for (const f of readdirSync(outbox).filter((n) => n.endsWith('.eml'))) {
        const mail = await simpleParser(readFileSync(path.join(outbox, f)));
        const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
        if (!to.toLowerCase().includes(email.toLowerCase())) continue;
        const link = /https?:\/\/\S*verify=true\S*/.exec(mail.text ?? '');
        if (link) return new URL(link[0]);
      }
    }
    if (Date.now() > deadline) throw new Error(`No verification mail to ${email} in ${outbox} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Registers, verifies (through the outbox mail) and logs in a new user. */
export async function registerApiUser(base: string, dataDir: string): Promise<ApiUser> {
  const email = `probe-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password 123';
  await call(base, 'POST', '/api/platform/register', {
    body: { name: 'Probe User', username: email, email, role: 'bm', company: 'Probe Ltd', password, accept_terms: true },
  });
  const link = await verificationLink(path.join(dataDir, 'outbox'), email, 20_000);
  const token = link.searchParams.get('token');
  const res = await fetch(`${base}/api/platform/emailVerify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
    body: JSON.stringify({ email: link.searchParams.get('email') }),
  });
  if (res.status !== 200) throw new ApiCallError('emailVerify', res.status, await res.text());
  const { access } = await call<{ access: string }>(base, 'POST', '/api/platform/api-jwt-token/', { body: { username: email, password } });
  const me = await call<{ workato_id: number | null }>(base, 'GET', '/api/platform/userId', { token: access });
  if (!me.workato_id) throw new Error(`The new user ${email} has no managed user (workato_id)`);
  return { email, access, workatoId: me.workato_id };
}

/** The user's recipe record of a combination. */
export async function recipeOf(base: string, user: ApiUser, combinationId: number): Promise<RecipeRecord> {
  const body = await call<{ workato_recipes: RecipeRecord[] }>(base, 'GET', `/api/platform/userByWorkatoRecipe/${user.workatoId}/`, { token: user.access });
  const rec = body.workato_recipes.find((r) => r.combination === combinationId);
  if (!rec) throw new Error(`The user has no recipe for combination ${combinationId}`);
  return rec;
}

/** Starts the user's recipe of a combination (the provider proxy's start call); returns its record. */
export async function startedRecipe(base: string, user: ApiUser, combinationId: number): Promise<RecipeRecord> {
  const rec = await recipeOf(base, user, combinationId);
  await call(base, 'PUT', '/api/platform/proxy', { token: user.access, body: { url: `api/managed_users/${user.workatoId}/recipes/${rec.recipe_id}/start` } });
  return rec;
}

/** The path of a record's webhook (its address without the public origin). */
export function webhookPath(rec: RecipeRecord): string {
  return new URL(rec.workato_webhook).pathname;
}
