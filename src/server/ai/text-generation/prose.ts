import { createHash } from 'node:crypto';

/**
 * Chooses one of `options` from a string seed, always the same one for the same seed, so
 * templated prose varies between records but is stable between runs (and testable).
 */
export function pick<T>(seed: string, options: readonly T[]): T {
  if (options.length === 0) throw new RangeError('pick() needs at least one option to choose from.');
  return options[seededIndex(seed, options.length)];
}

/** A stable index in [0, n) from a string seed (SHA-256 based, evenly spread). */
export function seededIndex(seed: string, n: number): number {
  const digest = createHash('sha256').update(seed).digest();
  return digest.readUInt32BE(0) % n;
}

/**
 * Joins sentence fragments into prose: drops empty parts, trims, capitalises the first letter,
 * and ends each with a full stop unless it already ends with punctuation.
 */
export function joinSentences(parts: ReadonlyArray<string | null | undefined | false>): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => {
      const t = p.trim();
      const capital = t.charAt(0).toUpperCase() + t.slice(1);
      return /[.!?…:]["')\]]?$/.test(capital) ? capital : `${capital}.`;
    })
    .join(' ');
}

/** "a", "a and b", "a, b and c" — for lists inside sentences. */
export function listPhrase(items: readonly string[], conjunction = 'and'): string {
  const xs = items.filter((x) => x.trim() !== '');
  if (xs.length <= 1) return xs[0] ?? '';
  return `${xs.slice(0, -1).join(', ')} ${conjunction} ${xs[xs.length - 1]}`;
}

/** "1 invoice", "3 invoices" (or an explicit plural form). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
