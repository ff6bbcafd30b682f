import anyFields from '../../../schemas/automation/webhook-payloads/any-fields.schema.json';
import type { TriggerDefinition } from './kinds';

/** One field of a webhook payload (the JSON Schema keywords the checker and the setup screen read). */
export interface PayloadField {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  /** what the field is, in plain words, lower case: "the id of the Google Drive file to process" */
  description?: string;
  minLength?: number;
  pattern?: string;
  /** 'base64': the field carries a file (a multipart file part stands for it) */
  contentEncoding?: string;
  examples?: unknown[];
}

/** The JSON Schema of what a recipe's webhook call carries, declared by its trigger (schemas/automation/webhook-payloads). */
export interface WebhookPayloadSchema {
  $id?: string;
  title?: string;
  description?: string;
  type: 'object';
  required?: string[];
  /** alternatives, one of which must be given in full (text, or a file as binary) */
  anyOf?: Array<{ required: string[] }>;
  properties: Record<string, PayloadField>;
}

/** The payload of a trigger that declares none: any JSON fields. */
export const ANY_FIELDS_PAYLOAD = anyFields as WebhookPayloadSchema;

/** The payload a recipe's webhook takes: its trigger's, or any fields. */
export function webhookPayloadOf(trigger: Pick<TriggerDefinition, 'payload'> | undefined): WebhookPayloadSchema {
  return trigger?.payload ?? ANY_FIELDS_PAYLOAD;
}

const TYPE_WORDS: Record<NonNullable<PayloadField['type']>, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object of fields',
  array: 'a list',
};

function hasType(value: unknown, type: NonNullable<PayloadField['type']>): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return !!value && typeof value === 'object' && !Array.isArray(value);
  }
}

const what = (field: PayloadField) => (field.description ? `: ${field.description}` : '');
const article = (name: string) => (/^[aeiou]/i.test(name) ? 'an' : 'a');

/**
 * What is wrong with a webhook call's fields, in plain words naming the field ("The request needs
 * a file_id: the id of the Google Drive file to process."), or undefined when they fit the
 * trigger's payload. `filesGiven`: the call brought files as multipart parts, which stand for
 * the base64 fields.
 */
export function payloadProblem(schema: WebhookPayloadSchema, fields: Record<string, unknown>, opts: { filesGiven: boolean }): string | undefined {
  // a file field is given by a multipart file part, or by any JSON field ending in "binary" (file1_binary, …)
  const filesGiven = opts.filesGiven || Object.entries(fields).some(([k, v]) => /binary$/i.test(k) && typeof v === 'string' && v.length > 0);
  const given = (name: string) =>
    (fields[name] !== undefined && fields[name] !== null) || (filesGiven && schema.properties[name]?.contentEncoding === 'base64');
  const needs = (name: string) => {
    const field = schema.properties[name] ?? {};
    return field.contentEncoding === 'base64'
      ? `a file: ${name}, ${field.description ?? 'a file encoded in base64'}, or a file part of a multipart form`
      : `${article(name)} ${name}${what(field)}`;
  };
  for (const name of schema.required ?? []) if (!given(name)) return `The request needs ${needs(name)}.`;
  const alternatives = (schema.anyOf ?? []).filter((a) => a.required.length);
  if (alternatives.length && !alternatives.some((a) => a.required.every(given))) {
    return `The request needs ${alternatives.map((a) => a.required.map(needs).join(' and ')).join(', or ')}.`;
  }
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    if (field.type && !hasType(value, field.type)) return `The ${name} must be ${TYPE_WORDS[field.type]}${what(field)}.`;
    if (typeof value !== 'string') continue;
    if (field.minLength && value.trim().length < field.minLength) return `The ${name} is empty${what(field)}.`;
    if (field.pattern && !new RegExp(field.pattern).test(value)) return `The ${name} is not valid${what(field)}.`;
  }
  return undefined;
}

/** An example call of a payload: each field's first example (or a placeholder of its type). */
export function payloadExample(schema: WebhookPayloadSchema): Record<string, unknown> {
  const placeholder: Record<NonNullable<PayloadField['type']>, unknown> = { string: '...', number: 0, integer: 0, boolean: true, object: {}, array: [] };
  // of alternatives (text, or a file), the example shows the first
  const [first, ...others] = schema.anyOf ?? [];
  const otherwise = new Set(others.flatMap((a) => a.required).filter((n) => !first?.required.includes(n)));
  return Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([name]) => !otherwise.has(name))
      .map(([name, f]) => [name, f.examples?.[0] ?? placeholder[f.type ?? 'string']]),
  );
}
