/**
 * Small language tools shared by the summariser, the pitch voices and the press-release writer:
 * sentence splitting, word tokens with stop words removed, a light stemmer and a stable hash.
 */
import { fnv1a } from '../../../src/core';

/** Common English function words, ignored when comparing or ranking sentences. */
export const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further had has
  have having he her here hers herself him himself his how i if in into is it its itself just let me
  more most my myself no nor not now of off on once only or other our ours ourselves out over own same
  she should so some such than that the their theirs them themselves then there these they this those
  through to too under until up very was we were what when where which while who whom why will with
  would you your yours yourself yourselves us via per within without across among upon onto whose
  may might must shall s t don isn aren wasn weren hasn haven hadn doesn didn won wouldn can't cannot
  it's we're they're you're i'm that's there's here's what's let's`.split(/\s+/),
);

/** Abbreviations after which a full stop does not end a sentence. */
const ABBREVIATIONS = /\b(?:Dr|Mr|Mrs|Ms|Prof|Sr|Jr|St|Mt|vs|e\.g|i\.e|approx|No|U\.S|U\.K)\.\s*$/i;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits text into sentences: ICU sentence rules, then re-joins breaks ICU makes after
 * abbreviations such as "Dr." or "e.g.".
 */
export function splitSentences(text: string): string[] {
  const raw = Array.from(segmenter.segment(text.replace(/\s+/g, ' ')), (s) => s.segment.trim()).filter(Boolean);
  const sentences: string[] = [];
  for (const part of raw) {
    const previous = sentences[sentences.length - 1];
    if (previous && ABBREVIATIONS.test(previous)) {
      sentences[sentences.length - 1] = `${previous} ${part}`;
    } else {
      sentences.push(part);
    }
  }
  return sentences;
}

/** Lower-case word tokens (letters and digits, inner apostrophes and hyphens kept). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** A light suffix-stripping stemmer: enough to match "sensor/sensors", "detects/detecting". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['sses', 'ss'],
    ['ing', ''],
    ['edly', ''],
    ['ed', ''],
    ['ly', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3 && !(suffix === 's' && word.endsWith('ss'))) {
      return word.slice(0, word.length - suffix.length) + replacement;
    }
  }
  return word;
}

/** Content terms of a text: words minus stop words and numbers-only tokens, stemmed. */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w) && !/^\d+$/.test(w) && w.length > 1)
    .map(stem);
}

/** A stable 32-bit hash (FNV-1a, the kernel's) used to make template choices deterministic per input. */
export const hash = fnv1a;

/** Picks one item deterministically from a seed and a salt. */
export function pick<T>(items: readonly T[], seed: number, salt: number): T {
  return items[hash(`${seed}:${salt}`) % items.length];
}

/** Jaccard similarity of two sets. */
export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Ensures a sentence ends with punctuation. */
export function terminate(sentence: string): string {
  const trimmed = sentence.trim();
  return /[.!?…]["”')\]]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Upper-cases the first letter. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the first word looks like a name or acronym. */
export function decapitalise(text: string): string {
  const first = text.split(/\s/)[0] ?? '';
  if (/^[A-Z0-9]{2,}/.test(first) || /[A-Z]/.test(first.slice(1))) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}
