import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import type { JobQueue } from '../queue/job-queue';
import type { Clock } from '../../core/services';
import * as T from '../tokens';
import type { PasswordHasher } from './password';
import type { TokenService } from './token-service';

/** What the auth routes use: the auth module's typed dependencies, plus derived helpers. */
export interface AuthDeps {
  queue: JobQueue;
  config: ServerConfig;
  db: Db;
  tokens: TokenService;
  hasher: PasswordHasher;
  now(): Date;
  /** Route config for the endpoints that guess or send things: per client address, per minute. */
  rateLimited: { rateLimit: { max: number; timeWindow: string } };
}

export const authNeeds = {
  config: T.ServerConfig,
  db: T.Db,
  tokens: T.TokenService,
  hasher: T.PasswordHasher,
  clock: T.Clock,
  queue: T.JobQueue,
};

export function resolveAuthDeps(d: { config: ServerConfig; db: Db; tokens: TokenService; hasher: PasswordHasher; clock: Clock; queue: JobQueue }): AuthDeps {
  return {
    config: d.config,
    db: d.db,
    tokens: d.tokens,
    hasher: d.hasher,
    queue: d.queue,
    now: () => new Date(d.clock.now()),
    rateLimited: { rateLimit: { max: d.config.authRateLimit, timeWindow: '1 minute' } },
  };
}
