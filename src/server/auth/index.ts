import { provide } from '../../core/plugin';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { registerAccountRoutes } from './account-routes';
import { authNeeds, resolveAuthDeps } from './deps';
import { PASSWORD_RESET_JOB, handlePasswordResetRequest, registerRecoveryRoutes, type PasswordResetRequest } from './recovery-routes';
import { registerSessionRoutes } from './session-routes';
import { PRUNE_SESSIONS_JOB, runPruneSessions, schedulePruneSessions } from './sessions';
import { Accounts, accountDirectory } from './users';

export { authenticate, bearerToken, userOf, type AuthUser, type RouteAuth } from './guard';
export { TokenService, InvalidTokenError } from './token-service';
export { Accounts, type AccountDirectory } from './users';

/**
 * Authentication and profile (spec section 7): SimpleJWT-compatible login and refresh,
 * userId, the profile and its update, password change, registration with e-mail
 * verification, and the forgotten-password reset. Single-use e-mailed tokens are recorded in
 * one_time_tokens; guessing endpoints are rate-limited per client address.
 */
export const authModule = defineServerPlugin({
  id: 'auth',
  needs: authNeeds,
  provides: [provide(Accounts, (get) => accountDirectory(get(T.Db)))],
  async routes(app, needs) {
    const deps = resolveAuthDeps(needs);
    registerSessionRoutes(app, deps);
    registerAccountRoutes(app, deps);
    registerRecoveryRoutes(app, deps);
  },
  jobs: {
    [PASSWORD_RESET_JOB]: { concurrency: 2, handler: (data: PasswordResetRequest, needs) => handlePasswordResetRequest(data, resolveAuthDeps(needs)) },
    // expired refresh-token uses and revoked sessions go once an hour (and once at start)
    [PRUNE_SESSIONS_JOB]: (data: { slot?: number }, needs) => runPruneSessions(needs.db, needs.queue, data, new Date(needs.clock.now())),
  },
  async onStart({ queue, clock }) {
    await schedulePruneSessions(queue, clock.now());
  },
});
