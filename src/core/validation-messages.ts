/**
 * The one translator from JSON Schema (Ajv) errors to English, shared by the browser's forms and
 * the server's request validation, so a schema rule reads the same on both sides.
 *
 * A schema's own `errorMessage` wins (the ajv-errors shape, without that package):
 *   - a string replaces the message of every error raised by that sub-schema;
 *   - an object maps a keyword to its message (`{ "minLength": "..." }`), and on an object
 *     schema `{ "required": { "name": "..." } }` gives the message for one missing property.
 * Otherwise the rule is described in plain words. A form shows the sentence beside its field, so
 * it has no subject ("Must be at least 8 characters long."); the server names the field
 * ("Password must be at least 8 characters long.") with the field's title, or its name.
 */
export const ERROR_MESSAGE_KEYWORD = 'errorMessage';

/** The parts of an Ajv error a message needs (`parentSchema` is there with `verbose: true`). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: unknown;
}

type ErrorMessageSpec = string | Record<string, string | Record<string, string>>;
interface ParentSchema {
  errorMessage?: ErrorMessageSpec;
  title?: unknown;
  properties?: Record<string, { title?: unknown }>;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

export function sentence(s: string): string {
  const t = s.trim();
  const capitalised = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** The message the schema itself gives for this error, if any. */
export function authoredMessage(issue: SchemaIssue): string | undefined {
  const spec = (issue.parentSchema as ParentSchema | undefined)?.errorMessage;
  if (spec === undefined) return undefined;
  if (issue.keyword === 'required') {
    // rjsf quotes property names ('name') while its localizer runs
    const missing = String(issue.params.missingProperty ?? '').replace(/^'(.*)'$/, '$1');
    const byProp = typeof spec === 'object' ? spec.required : undefined;
    if (typeof byProp === 'string') return byProp;
    if (byProp && typeof byProp[missing] === 'string') return byProp[missing];
    return undefined;
  }
  if (issue.keyword === 'additionalProperties') return undefined;
  if (typeof spec === 'string') return spec;
  const byKeyword = spec[issue.keyword];
  return typeof byKeyword === 'string' ? byKeyword : undefined;
}

/**
 * One sentence for one error. `field` is the subject for the server ('Password', 'the request
 * body'); without it the sentence is addressed to the user beside the field, as a form shows it.
 */
export function issueSentence(issue: SchemaIssue, field?: string): string {
  const custom = authoredMessage(issue);
  if (custom) return custom;
  const p = issue.params;
  const subject = (s: string, plain: string) => (field ? sentence(`${field} ${s}`) : plain);
  switch (issue.keyword) {
    case 'required':
      return subject('is required', 'This field is required.');
    case 'additionalProperties':
      return field ? sentence(`"${String(p.additionalProperty)}" is not an accepted field`) : 'This form contains an unexpected field.';
    case 'type': {
      const wanted = String(p.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ');
      return subject(`must be ${wanted}`, p.type === 'number' || p.type === 'integer' ? 'Please enter a number.' : 'This value is not valid.');
    }
    case 'format': {
      const f = String(p.format);
      if (f === 'email') return subject('must be a valid e-mail address', 'Please enter a valid email address.');
      if (f === 'uri' || f === 'url') return subject('must be a valid web address', 'Please enter a valid web address.');
      if (f === 'date' || f === 'date-time') return subject('must be a valid date', 'Please enter a valid date.');
      return subject(`must be a valid ${f}`, `Please enter a valid ${f}.`);
    }
    case 'minLength':
      return Number(p.limit) <= 1
        ? subject('must not be empty', 'This field is required.')
        : subject(`must be at least ${String(p.limit)} characters long`, `Must be at least ${String(p.limit)} characters long.`);
    case 'maxLength':
      return subject(`must be at most ${String(p.limit)} characters long`, `Must be at most ${String(p.limit)} characters long.`);
    case 'enum':
    case 'oneOf':
    case 'anyOf':
      return subject('must be one of the listed options', 'Please choose one of the options.');
    case 'const':
      if (typeof p.allowedValue === 'boolean') return field ? sentence(`Please tick "${field}"`) : 'Please tick this box.';
      return subject(`must be ${JSON.stringify(p.allowedValue)}`, 'This value is not allowed.');
    case 'minimum':
      return subject(`must be ${String(p.limit)} or more`, `Must be ${String(p.limit)} or more.`);
    case 'maximum':
      return subject(`must be ${String(p.limit)} or less`, `Must be ${String(p.limit)} or less.`);
    case 'pattern':
      return subject('is not in the expected format', 'This value is not in the expected format.');
    default: {
      const m = issue.message ?? 'is not valid';
      return field ? sentence(`${field} ${m}`) : sentence(m);
    }
  }
}

/**
 * The server's sentence for a failed request: the outermost error (a `oneOf` rather than each of
 * its branches), its field named by its title or its path.
 */
export function requestErrorSentence(issues: SchemaIssue[], context: 'body' | 'query' | 'params' | 'headers' = 'body'): string {
  if (issues.length === 0) return 'The request is not valid.';
  const depth = (i: SchemaIssue) => (i.schemaPath ?? '').split('/').length;
  const issue = issues.reduce((best, i) => (depth(i) < depth(best) ? i : best), issues[0]);
  const parent = issue.parentSchema as ParentSchema | undefined;
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    const missing = String(issue.params.missingProperty);
    const title = parent?.properties?.[missing]?.title;
    return issueSentence(issue, typeof title === 'string' ? title : missing);
  }
  if (issue.keyword === 'type' && !path && issue.params.type === 'object') return sentence(`The request ${context} must be a JSON object`);
  const title = parent?.title;
  const label = typeof title === 'string' && path ? title : path || `the request ${context}`;
  return issueSentence(issue, label);
}
