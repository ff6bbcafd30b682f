import { token } from '../../core/di';
import type { ServerConfig } from '../config';

/** The engine's limits and timings; from the configuration, smaller in tests. */
export interface EngineOptions {
  /** jobs one user may have running at once (ENGINE_USER_CONCURRENCY) */
  userConcurrency: number;
  /** a step's time-out, ms (ENGINE_STEP_TIMEOUT_MS) */
  stepTimeoutMs: number;
  /** an AI step's time-out, ms (ENGINE_AI_STEP_TIMEOUT_MS) */
  aiStepTimeoutMs: number;
  /** tries of a step whose action names none */
  defaultAttempts: number;
  /** first retry wait, doubled each try, ms */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** how long a job over its owner's limit waits before it asks again, ms */
  busyDelayMs: number;
  /** how long a running job's claim lasts without renewal (renewed every third), ms */
  leaseMs: number;
  /** largest step output kept as a checkpoint, bytes */
  maxOutputBytes: number;
  /** at most one failure e-mail per recipe in this time, ms */
  failureNoticeIntervalMs: number;
  /** webhook calls one recipe accepts per minute */
  webhookRateLimit: number;
  /** largest e-mail the inbound listener accepts, bytes */
  maxInboundMailBytes: number;
  /** test-only: typed steps' HTTP client may reach 127.0.0.1 (a local fixture server); never set from the configuration */
  stepHttpAllowLoopback?: boolean;
}

export const AutomationOptions = token<EngineOptions>('AutomationOptions');

/** The options from the server configuration. */
export function engineOptionsFrom(config: ServerConfig): EngineOptions {
  return {
    userConcurrency: config.engineUserConcurrency,
    stepTimeoutMs: config.engineStepTimeoutMs,
    aiStepTimeoutMs: config.engineAiStepTimeoutMs,
    defaultAttempts: 3,
    backoffBaseMs: 1000,
    backoffMaxMs: 60_000,
    busyDelayMs: 250,
    leaseMs: 15_000,
    maxOutputBytes: 256 * 1024,
    failureNoticeIntervalMs: 60 * 60 * 1000,
    webhookRateLimit: config.webhookRateLimit,
    maxInboundMailBytes: Math.min(config.maxUploadBytes * 2, 50 * 1024 * 1024),
  };
}
