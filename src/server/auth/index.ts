import { defineServerPlugin } from '../plugin';
import { registerAccountRoutes } from './account-routes';
import { resolveAuthDeps } from './deps';
import { registerRecoveryRoutes } from './recovery-routes';
import { registerSessionRoutes } from './session-routes';

export { requireUser, bearerToken, type AuthUser } from './guard';
export { TokenService, InvalidTokenError } from './token-service';

/**
 * Authentication and profile (spec section 7): SimpleJWT-compatible login and refresh,
 * userId, the profile and its update, password change, registration with e-mail
 * verification, and the forgotten-password reset. Single-use e-mailed tokens are recorded in
 * one_time_tokens; guessing endpoints are rate-limited per client address.
 */
export const authModule = defineServerPlugin({
  id: 'auth',
  async routes(app, { container }) {
    const deps = resolveAuthDeps(container);
    registerSessionRoutes(app, deps);
    registerAccountRoutes(app, deps);
    registerRecoveryRoutes(app, deps);
  },
});
