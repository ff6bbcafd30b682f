import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './errors';
import { requestErrorSentence, type SchemaIssue } from '../../core/validation-messages';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

/** Ajv's errors of a failed request as one sentence, by the translator the forms use too. */
export function validationMessage(err: Pick<FastifyError, 'validation' | 'validationContext'>): string {
  return requestErrorSentence((err.validation ?? []) as unknown as SchemaIssue[], (err.validationContext ?? 'body') as 'body');
}

/** Plain words for the framework's own 4xx errors. */
const FRIENDLY_4XX: Record<number, string> = {
  413: 'The upload is too large.',
  415: 'Send the request body as JSON (Content-Type: application/json), or as multipart form data for uploads.',
  429: 'Too many attempts. Please wait a minute and try again.',
};

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
      const message = FRIENDLY_4XX[code] ?? error.message;
      return reply.code(code).send({ status: 'error', message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: 'error', message: GENERIC_500 });
  });
}
