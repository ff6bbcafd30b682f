import { HttpError } from '../http/errors';

/** A stored token sealed with a key that is no longer configured (SECRET_KEY rotated without PREVIOUS_SECRET_KEYS). */
export class TokenKeyMissingError extends Error {
  constructor() {
    super('This connection was sealed with a secret key that is no longer configured: add the old key to PREVIOUS_SECRET_KEYS, or connect again.');
    this.name = 'TokenKeyMissingError';
  }
}

/** A sealed value that fails authentication (tampered, truncated or bound to another record). */
export class TokenTamperedError extends Error {
  constructor() {
    super('A stored connection token failed its integrity check and was not used.');
    this.name = 'TokenTamperedError';
  }
}

/**
 * Why a Connect failed, as the /connections/done page names it (that page shows only these
 * known outcomes, never text from its address).
 */
export type ConnectFailure = 'not_started' | 'state_mismatch' | 'other_account' | 'provider';

/** Connecting failed: a refused consent, a forged or expired state, another signed-in user, a provider error. */
export class ConnectFailedError extends HttpError {
  constructor(
    message: string,
    status = 400,
    readonly reason: ConnectFailure = 'provider',
  ) {
    super(status, message, { reason });
    this.name = 'ConnectFailedError';
  }
}

/** An action needs a connection the user does not have (never made, disconnected or lost). */
export class NotConnectedError extends Error {
  constructor(
    readonly provider: string,
    readonly providerName: string,
    readonly reason?: string,
  ) {
    super(`${providerName} is not connected${reason ? ` (${reason})` : ''}: connect it in the connections tab, then try again.`);
    this.name = 'NotConnectedError';
  }
}

/** A provider nobody registered or that is not configured on this server. */
export class UnknownProviderError extends HttpError {
  constructor(provider: string) {
    super(404, `There is no connector "${String(provider).slice(0, 40)}" to connect on this server.`);
    this.name = 'UnknownProviderError';
  }
}
