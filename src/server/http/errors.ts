/**
 * An error a route throws on purpose: its status and message reach the client as
 * `{ status: 'error', message, ...extra }`. Anything else becomes a generic 500 with the
 * details in the server log only.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorised = (message = 'Authentication credentials were not provided or are invalid.', extra?: Record<string, unknown>) =>
  new HttpError(401, message, { status_code: 401, ...extra });
export const forbidden = (message = 'You do not have permission to perform this action.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
