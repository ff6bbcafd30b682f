import type { Container } from 'inversify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import * as T from '../tokens';
import type { PasswordHasher } from './password';
import type { TokenService } from './token-service';

/** What the auth routes use, resolved once from the container when the routes are registered. */
export interface AuthDeps {
  container: Container;
  config: ServerConfig;
  db: Db;
  tokens: TokenService;
  hasher: PasswordHasher;
  now(): Date;
  /** Route config for the endpoints that guess or send things: per client address, per minute. */
  rateLimited: { rateLimit: { max: number; timeWindow: string } };
}

export function resolveAuthDeps(container: Container): AuthDeps {
  const config = container.get<ServerConfig>(T.ServerConfig);
  const clock = container.get<{ now(): number }>(T.Clock);
  return {
    container,
    config,
    db: container.get<Db>(T.Db),
    tokens: container.get<TokenService>(T.TokenService),
    hasher: container.get<PasswordHasher>(T.PasswordHasher),
    now: () => new Date(clock.now()),
    rateLimited: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } },
  };
}
