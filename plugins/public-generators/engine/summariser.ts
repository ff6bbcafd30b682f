import { contentTerms, jaccard, splitSentences, words } from './text-tools';

/**
 * Extractive summariser: picks the most central sentences of a text (TextRank over TF-IDF cosine
 * similarity, with a prior favouring early sentences and paragraph openings), drops near-duplicates
 * and returns the chosen sentences in their original order. No model, no network: the summary is
 * always made of sentences the page really contains.
 */

export interface SummaryOptions {
  /** Most sentences returned (default 5). */
  maxSentences?: number;
  /** Sentences shorter than this many words are not candidates (default 5). */
  minWords?: number;
}

export interface Summary {
  /** The chosen sentences, in the order they appear in the text. */
  sentences: string[];
  /** The sentences joined with spaces. */
  text: string;
}

/** The text has too few real sentences to summarise. */
export class SummaryError extends Error {
  constructor(message = 'There is not enough text on that page to summarise.') {
    super(message);
    this.name = 'SummaryError';
  }
}

interface Candidate {
  text: string;
  index: number;
  paragraphStart: boolean;
  terms: string[];
}

const MAX_WORDS = 70;
const DAMPING = 0.85;
const DUPLICATE_THRESHOLD = 0.6;

function candidates(text: string, minWords: number): Candidate[] {
  const list: Candidate[] = [];
  let index = 0;
  for (const paragraph of text.split(/\n\s*\n/)) {
    let first = true;
    for (const sentence of splitSentences(paragraph)) {
      const count = words(sentence).length;
      // Sentences must read as prose: enough words, not a giant run-on (lists, menus, tables).
      if (count >= minWords && count <= MAX_WORDS && /[\p{L}]/u.test(sentence)) {
        list.push({ text: sentence, index, paragraphStart: first, terms: contentTerms(sentence) });
      }
      first = false;
      index++;
    }
  }
  return list.filter((c) => c.terms.length > 0);
}

/** TF-IDF vectors (as maps) for each candidate. */
function tfidf(items: Candidate[]): Array<Map<string, number>> {
  const documentFrequency = new Map<string, number>();
  for (const item of items) for (const term of new Set(item.terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return items.map((item) => {
    const vector = new Map<string, number>();
    for (const term of item.terms) vector.set(term, (vector.get(term) ?? 0) + 1);
    for (const [term, count] of vector) {
      const idf = Math.log((1 + items.length) / (1 + (documentFrequency.get(term) ?? 0))) + 1;
      vector.set(term, (1 + Math.log(count)) * idf);
    }
    return vector;
  });
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, weight] of a) {
    normA += weight * weight;
    const other = b.get(term);
    if (other !== undefined) dot += weight * other;
  }
  for (const weight of b.values()) normB += weight * weight;
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}

/** PageRank over the weighted sentence-similarity graph. */
function textRank(vectors: Array<Map<string, number>>): number[] {
  const n = vectors.length;
  const weights = vectors.map((a, i) => vectors.map((b, j) => (i === j ? 0 : cosine(a, b))));
  const outSum = weights.map((row) => row.reduce((s, w) => s + w, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < 50; iteration++) {
    const next = scores.map((_, i) => {
      let incoming = 0;
      for (let j = 0; j < n; j++) if (outSum[j] > 0) incoming += (weights[j][i] / outSum[j]) * scores[j];
      return (1 - DAMPING) / n + DAMPING * incoming;
    });
    const change = next.reduce((s, v, i) => s + Math.abs(v - scores[i]), 0);
    scores = next;
    if (change < 1e-6) break;
  }
  return scores;
}

/**
 * Summarises `text` in at most `maxSentences` of its own sentences, ranked by centrality and
 * position, near-duplicates removed, returned in original order.
 * Throws SummaryError when the text holds no sentence worth keeping.
 */
export function summarise(text: string, options: SummaryOptions = {}): Summary {
  const maxSentences = options.maxSentences ?? 5;
  if (!Number.isInteger(maxSentences) || maxSentences < 1) throw new SummaryError('The summary must have at least one sentence.');
  const items = candidates(text ?? '', options.minWords ?? 5);
  if (items.length === 0) throw new SummaryError();

  const centrality = textRank(tfidf(items));
  const maxCentrality = Math.max(...centrality);
  const lastIndex = items[items.length - 1].index || 1;
  const ranked = items
    .map((item, i) => {
      const position = 1 - item.index / (lastIndex + 1);
      const score = centrality[i] / maxCentrality + 0.35 * position + (item.paragraphStart ? 0.1 : 0);
      return { item, score, termSet: new Set(item.terms) };
    })
    .sort((a, b) => b.score - a.score || a.item.index - b.item.index);

  const chosen: typeof ranked = [];
  for (const entry of ranked) {
    if (chosen.length >= maxSentences) break;
    if (chosen.some((c) => jaccard(c.termSet, entry.termSet) >= DUPLICATE_THRESHOLD)) continue;
    chosen.push(entry);
  }
  const sentences = chosen.sort((a, b) => a.item.index - b.item.index).map((c) => c.item.text);
  return { sentences, text: sentences.join(' ') };
}
