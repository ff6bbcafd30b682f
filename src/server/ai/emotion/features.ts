import { fnv1a } from '../../../core/hash';
import { EMOTIONS } from './emotions';
import { classifyEmotion, type EmotionClassification } from './lexicon-classifier';
import { isNegator } from './rules';
import { tokenize } from './tokenizer';

/**
 * Settings of the featuriser, stored with the trained weights so that training and inference
 * always build the same features.
 */
export interface FeatureConfig {
  /** Number of hash buckets (a power of two). */
  buckets: number;
  /** Character n-gram lengths taken inside each word (with its boundaries), e.g. [3, 5]. */
  charNgrams: [number, number];
  /** Weight of the character n-gram group against the word group. */
  charWeight: number;
  /**
   * Weight of the lexicon's share of evidence for each label ("lex:<label>"), so the model
   * learns from data how far to trust the hand-written lexicon; 0 or absent: not used.
   */
  lexiconWeight?: number;
}

/** A sparse feature vector: bucket indexes (ascending, distinct) and their values, L2-normalised. */
export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

/** Placeholders GoEmotions put for names ("[NAME]", "[RELIGION]"), read as one word each. */
const PLACEHOLDER = /\[(NAME|RELIGION)\]/g;

/** FNV-1a (32-bit) of a string, for feature hashing (the one in src/core). */
export { fnv1a };

/**
 * The named features of a sentence with their counts: words ("w:"), word pairs ("b:"), words in
 * the scope of a negation ("n:" — "not happy" reads differently from "happy"), character n-grams
 * of each word ("c:", for misspellings and word forms), and shape cues (capitals, "!", "?").
 */
export function namedFeatures(sentence: string, config: Pick<FeatureConfig, 'charNgrams'>): { words: Map<string, number>; chars: Map<string, number> } {
  const words = new Map<string, number>();
  const chars = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const tokens = tokenize(sentence.replace(PLACEHOLDER, (_, kind: string) => ` x${kind.toLowerCase()}x `));
  let previous = '<s>';
  let negated = false;
  for (const token of tokens) {
    const t = token.text;
    bump(words, `w:${t}`);
    bump(words, `b:${previous} ${t}`);
    if (token.type === 'punct') negated = false;
    else if (token.type === 'word') {
      if (negated) bump(words, `n:${t}`);
      if (isNegator(t)) negated = true;
      if (token.caps) bump(words, 'shape:caps');
      const padded = `<${t}>`;
      const [lo, hi] = config.charNgrams;
      for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= padded.length; i++) bump(chars, padded.slice(i, i + n));
    }
    previous = t;
  }
  bump(words, `b:${previous} </s>`);
  if (tokens.length === 0) bump(words, 'shape:empty');
  return { words, chars };
}

/**
 * The hashed, sublinearly weighted (1 + ln count), L2-normalised feature vector of a sentence.
 * Colliding features add up in their bucket. `lexicon`: the lexicon's classification of the
 * sentence when the caller already has it.
 */
export function featurise(sentence: string, config: FeatureConfig, lexicon?: EmotionClassification): SparseVector {
  const { words, chars } = namedFeatures(sentence, config);
  const mask = config.buckets - 1;
  const acc = new Map<number, number>();
  const put = (name: string, count: number, weight: number) => {
    const b = fnv1a(name) & mask;
    acc.set(b, (acc.get(b) ?? 0) + weight * (1 + Math.log(count)));
  };
  for (const [name, count] of words) put(name, count, 1);
  for (const [name, count] of chars) put(`c:${name}`, count, config.charWeight);
  if (config.lexiconWeight) {
    const shares = (lexicon ?? classifyEmotion(sentence)).scores;
    for (const e of EMOTIONS) {
      const b = fnv1a(`lex:${e}`) & mask;
      if (shares[e] > 0) acc.set(b, (acc.get(b) ?? 0) + config.lexiconWeight * shares[e]);
    }
  }
  const indices = Int32Array.from([...acc.keys()].sort((a, b) => a - b));
  const values = new Float32Array(indices.length);
  let norm = 0;
  indices.forEach((b, i) => {
    values[i] = acc.get(b)!;
    norm += values[i] * values[i];
  });
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < values.length; i++) values[i] /= norm;
  return { indices, values };
}
