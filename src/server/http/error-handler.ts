import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './errors';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

/** Turns an Ajv validation error into one readable sentence. */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return 'The request is not valid.';
  const custom = ((first as unknown as { parentSchema?: unknown }).parentSchema as { errorMessage?: string } | undefined)?.errorMessage;
  if (custom) return custom;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
    (first.params as { missingProperty?: string }).missingProperty || 'body';
  return `${field} ${first.message ?? 'is not valid'}`.trim() + '.';
}

/** JSON errors only, never a stack trace; 5xx details go to the log. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ status: 'error', message: error.message, ...error.extra });
    }
    if (error.validation) {
      return reply.code(400).send({ status: 'error', message: validationMessage(error) });
    }
    const code = error.statusCode ?? 500;
    if (code >= 400 && code < 500) {
      const message = code === 413 ? 'The upload is too large.' : code === 429 ? 'Too many attempts. Please wait a minute and try again.' : error.message;
      return reply.code(code).send({ status: 'error', message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: 'error', message: GENERIC_500 });
  });
}
