/**
 * One place for the error text a user sees (issue 25): a sentence about their data or action,
 * never an exception's own text, a field name or an internal code. The server's sentences arrive
 * as ApiError messages and are shown as they are; an error the browser itself raised (a
 * TypeError, a RangeError such as 'Invalid string length', a JSON SyntaxError...) or any text that
 * reads as code is replaced by the screen's own sentence.
 */
import { GENERIC_ERROR } from './services/api-client';
import { NETWORK_ERROR_MESSAGE } from './services/http';

export { GENERIC_ERROR, NETWORK_ERROR_MESSAGE };

/** The browser's and JavaScript's own error kinds: their messages are written for developers. */
const RAW_KINDS = new Set([
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'InternalError',
  'AggregateError',
  'DOMException',
  'NotReadableError',
  'NotFoundError',
  'SecurityError',
  'QuotaExceededError',
  'EncodingError',
  'InvalidStateError',
]);

/** Text that reads as code: a stack line, 'undefined'/'NaN'/'[object …]', an exception's prefix, a quoted snake_case field name. */
const CODE_LIKE: readonly RegExp[] = [
  /\n\s*at\s+\S/, // a stack trace line
  /\b(undefined|NaN)\b|\[object \w+\]/,
  /^\s*\w*(Error|Exception)\b\s*:/, // 'TypeError: …'
  /\b(Unexpected token|is not a function|Cannot read propert|Maximum call stack|Invalid string length|Failed to fetch)/i,
  /["'`][a-z]+(_[a-z0-9]+)+["'`]/, // a quoted field name such as "sheet_id"
];

/** Whether a text reads as code rather than as a sentence for the user. */
export function looksInternal(text: string): boolean {
  return CODE_LIKE.some((re) => re.test(text));
}

/**
 * The sentence to show for an error: its message when it is one written for the user (the
 * server's, or the app's own Error with a sentence), the screen's fallback otherwise.
 */
export function userMessage(error: unknown, fallback: string = GENERIC_ERROR): string {
  if (!(error instanceof Error) || !error.message.trim()) return fallback;
  if (RAW_KINDS.has(error.name) || RAW_KINDS.has(error.constructor?.name ?? '')) return fallback;
  return looksInternal(error.message) ? fallback : error.message;
}
