import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './errors';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

/** The parts of an Ajv error the message needs (`parentSchema` is there with `verbose: true`). */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { errorMessage?: unknown; title?: unknown; properties?: Record<string, { title?: unknown }> };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function sentence(s: string): string {
  const t = s.trim();
  const capitalised = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/**
 * Turns Ajv validation errors into one readable sentence. A schema's own `errorMessage`
 * wins; otherwise the outermost error (a `oneOf` rather than each of its branches) is
 * described with the field's title, or its name when it has none.
 */
export function validationMessage(err: Pick<FastifyError, 'validation' | 'validationContext'>): string {
  const issues = (err.validation ?? []) as unknown as ValidationIssue[];
  if (issues.length === 0) return 'The request is not valid.';
  const depth = (i: ValidationIssue) => i.schemaPath.split('/').length;
  const issue = issues.reduce((best, i) => (depth(i) < depth(best) ? i : best), issues[0]);

  const custom = issue.parentSchema?.errorMessage;
  if (typeof custom === 'string' && issue.keyword !== 'required' && issue.keyword !== 'additionalProperties') return custom;

  const context = err.validationContext === 'querystring' ? 'query' : err.validationContext ?? 'body';
  const params = issue.params;
  if (issue.keyword === 'required') {
    const missing = String(params.missingProperty);
    const title = issue.parentSchema?.properties?.[missing]?.title;
    return sentence(`${typeof title === 'string' ? title : missing} is required`);
  }
  if (issue.keyword === 'additionalProperties') {
    return sentence(`"${String(params.additionalProperty)}" is not an accepted field`);
  }
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const title = issue.parentSchema?.title;
  const label = typeof title === 'string' && field ? title : field || `the request ${context}`;
  switch (issue.keyword) {
    case 'type': {
      const wanted = String(params.type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ');
      if (!field && params.type === 'object') return sentence(`The request ${context} must be a JSON object`);
      return sentence(`${label} must be ${wanted}`);
    }
    case 'format':
      return sentence(params.format === 'email' ? `${label} must be a valid e-mail address` : `${label} must be a valid ${String(params.format)}`);
    case 'minLength':
      return sentence(Number(params.limit) <= 1 ? `${label} must not be empty` : `${label} must be at least ${String(params.limit)} characters long`);
    case 'maxLength':
      return sentence(`${label} must be at most ${String(params.limit)} characters long`);
    case 'enum':
    case 'oneOf':
    case 'anyOf':
      return sentence(`${label} must be one of the listed options`);
    case 'const':
      return params.allowedValue === true ? sentence(`Please tick "${label}"`) : sentence(`${label} must be ${JSON.stringify(params.allowedValue)}`);
    case 'pattern':
      return sentence(`${label} is not in the expected format`);
    default:
      return sentence(`${label} ${issue.message ?? 'is not valid'}`);
  }
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
