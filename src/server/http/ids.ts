import { badRequest } from './errors';

const MAX_ID = 2_147_483_647;

/** A positive integer id, given as a number or as a string of digits; otherwise undefined. */
export function asId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 && value <= MAX_ID ? value : undefined;
  if (typeof value === 'string' && /^[1-9][0-9]{0,9}$/.test(value)) {
    const n = Number(value);
    return n <= MAX_ID ? n : undefined;
  }
  return undefined;
}

/** Parses an id from a path parameter; 400 '<what> must be a number.' otherwise. */
export function parseId(value: unknown, what: string): number {
  const id = asId(value);
  if (id === undefined) throw badRequest(`${what} must be a number.`);
  return id;
}
