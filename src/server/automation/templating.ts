import type { TriggerPayload } from './kinds';

/**
 * The engine's one templating mechanism: '{{field}}' in a step's settings (or a built-in step's
 * params) is filled from the step's input. Every step uses it — the built-in e-mail step, and the
 * settings of every step defined with defineAction — so a placeholder means the same everywhere.
 */

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;
const ONLY_PLACEHOLDER = /^\{\{\s*([\w.]+)\s*\}\}$/;

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The fields of a step's input: a trigger payload's data, or the object itself. */
export function fieldsOf(input: unknown): Record<string, unknown> {
  const rec = asRecord(input);
  const payload = rec as Partial<TriggerPayload>;
  return payload.source && payload.data && Array.isArray(payload.files) ? asRecord(payload.data) : rec;
}

/** Reads 'a.b.0.c' from a value. */
export function pathValue(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    cur = Array.isArray(cur) && /^\d+$/.test(part) ? cur[Number(part)] : (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** '{{name}}' → the field as text (dotted paths allowed; objects as JSON); missing fields become ''. */
export function fillTemplate(template: string, fields: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_, p: string) => {
    const v = pathValue(fields, p);
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** True when a string holds a '{{field}}' placeholder. */
export function hasPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && new RegExp(PLACEHOLDER.source).test(value);
}

/**
 * Fills every string of a settings value (objects and arrays walked): a string that is one
 * placeholder alone takes the field's own value (a number stays a number, a missing field
 * removes the setting), any other string is filled as text.
 */
export function applyTemplates<T>(value: T, fields: Record<string, unknown>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const only = ONLY_PLACEHOLDER.exec(v);
      if (only) return pathValue(fields, only[1]) ?? undefined;
      return hasPlaceholder(v) ? fillTemplate(v, fields) : v;
    }
    if (Array.isArray(v)) return v.map(walk).filter((x) => x !== undefined);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const filled = walk(x);
        if (filled !== undefined) out[k] = filled;
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
