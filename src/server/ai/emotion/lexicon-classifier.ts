import { FELT_EMOTIONS, type Emotion, type EmotionScores, type FeltEmotion } from './emotions';
import { builtInLexicon, Lexicon, type EmotionVector, type LexiconEntry } from './lexicon';
import {
  AFTER_CONTRAST,
  BEFORE_CONTRAST,
  CAPS_BOOST,
  CONCESSIVE_OPENERS,
  CONTRAST_WORDS,
  DOWNTONERS,
  EXCLAMATION_BOOST,
  HYPOTHETICAL_MARKERS,
  INTENSIFIERS,
  isNegator,
  MODIFIER_WINDOW,
  NEGATION_WINDOW,
  NEUTRAL_SCORE,
} from './rules';
import { tokenize, type Token } from './tokenizer';

export interface EmotionClassification {
  emotion: Emotion;
  /** Share of the evidence per label (sums to 1); neutral holds a fixed share of doubt. */
  scores: EmotionScores;
}

/** One matched lexicon entry, for explanations and tests. */
export interface EmotionHit {
  text: string;
  vector: EmotionVector;
  weight: number;
  negated: boolean;
}

/** Subject negators reach the whole short clause: "nobody in your team seems to care". */
const WIDE_NEGATORS = new Set(['nobody', 'nothing', 'noone', 'none', 'neither']);

const CLAUSE_BREAK = new Set([',', ';', ':', '(', ')', '—', '–', '--', '.', '!', '?', '…']);

/**
 * Classifies one sentence into one of Ekman's six emotions or neutral, from the built-in
 * lexicon and rules: phrases before words, negation within three words ("not happy", "didn't
 * expect", "hasn't arrived"), intensifiers and downtoners, the later clause of a contrast
 * counting more ("great, but the invoice is wrong"), hypothetical losses read as fear, capitals,
 * exclamation marks and emoji. Weak evidence gives neutral.
 */
export function classifyEmotion(sentence: string, lexicon: Lexicon = builtInLexicon()): EmotionClassification {
  const { raw } = scoreSentence(sentence, lexicon);
  let best: FeltEmotion | null = null;
  for (const e of FELT_EMOTIONS) if (raw[e] > (best ? raw[best] : 0)) best = e;
  const emotion: Emotion = best && raw[best] >= NEUTRAL_SCORE ? best : 'neutral';
  const total = FELT_EMOTIONS.reduce((s, e) => s + raw[e], NEUTRAL_SCORE);
  const scores = { neutral: round(NEUTRAL_SCORE / total) } as EmotionScores;
  for (const e of FELT_EMOTIONS) scores[e] = round(raw[e] / total);
  return { emotion, scores };
}

/** The raw evidence for each emotion and the hits that produced it (for tests and tuning). */
export function scoreSentence(sentence: string, lexicon: Lexicon = builtInLexicon()): { raw: Record<FeltEmotion, number>; hits: EmotionHit[] } {
  const tokens = tokenize(sentence);
  const raw = Object.fromEntries(FELT_EMOTIONS.map((e) => [e, 0])) as Record<FeltEmotion, number>;
  const hits: EmotionHit[] = [];
  const weights = clauseWeights(tokens);
  const words = tokens.map((t) => t.text);
  const firstHypothetical = words.findIndex((w) => HYPOTHETICAL_MARKERS.has(w));
  const isQuestion = /\?\s*\S{0,3}\s*$/u.test(sentence.trim());

  let negator = -1; // index of the last negator not yet used
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'punct') {
      if (CLAUSE_BREAK.has(token.text)) negator = -1;
      continue;
    }
    if (CONTRAST_WORDS.has(token.text)) negator = -1;

    const match = matchAt(tokens, i, lexicon);
    if (!match) {
      if (token.type === 'word' && isNegator(token.text)) negator = i;
      continue;
    }
    const { entry, length } = match;
    const end = i + length; // exclusive
    const reach = WIDE_NEGATORS.has(words[negator] ?? '') ? NEGATION_WINDOW * 2 : NEGATION_WINDOW;
    const inScope = negator >= 0 && wordsBetween(tokens, negator, i) < reach;
    // "can't recommend them highly enough": the negation is emphatic praise, not a negation
    const emphatic = inScope && enoughFollows(tokens, end);
    const negated = inScope && !emphatic;
    const hypothetical = entry.hypothetical && firstHypothetical >= 0 && firstHypothetical < i;
    let vector: EmotionVector = hypothetical ? entry.hypothetical! : entry.plain;
    if (negated) {
      vector = entry.negated ?? negateByDefault(entry.plain);
      negator = -1;
    } else if (entry.negated && Object.keys(entry.plain).length === 0) {
      // a word that only matters when negated ("expect", "arrive"): nothing to add
      i = end - 1;
      continue;
    }
    let weight = weights[i] * modifierAround(tokens, i, end, negated) * (emphatic ? 2 : 1);
    if (emphatic) negator = -1;
    if (tokens.slice(i, end).some((t) => t.caps)) weight *= CAPS_BOOST;
    add(raw, vector, weight);
    hits.push({ text: words.slice(i, end).join(' '), vector, weight, negated });
    i = end - 1;
  }

  // a complaint asked as a question: "Why does nobody ever call back?", "Why is it still broken?"
  if (
    isQuestion &&
    /^(?:why|how come)\b/.test(words.filter((w) => /\p{L}/u.test(w)).join(' ')) &&
    words.some((w) => isNegator(w) || w === 'still' || w === 'again')
  ) {
    raw.anger += 0.8;
    hits.push({ text: 'why … not?', vector: { anger: 0.8 }, weight: 1, negated: false });
  }
  // "still" right before a negation: "still hasn't arrived", "still no reply"
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i] === 'still' && isNegator(words[i + 1])) {
      raw.anger += 0.6;
      hits.push({ text: 'still + not', vector: { anger: 0.6 }, weight: 1, negated: false });
    }
  }
  // "?!" is astonishment
  if (/\?!|!\?/.test(sentence)) raw.surprise += 0.6;

  const exclamations = Math.min(3, (sentence.match(/!/g) ?? []).length);
  if (exclamations > 0) for (const e of FELT_EMOTIONS) raw[e] *= 1 + EXCLAMATION_BOOST * exclamations;
  return { raw, hits };
}

/** The longest lexicon phrase starting at token i, or the word itself. */
function matchAt(tokens: Token[], i: number, lexicon: Lexicon): { entry: LexiconEntry; length: number } | null {
  const first = tokens[i].text;
  for (const entry of lexicon.phrasesStartingWith(first)) {
    const n = entry.words.length;
    if (i + n > tokens.length) continue;
    let ok = true;
    for (let k = 1; k < n && ok; k++) ok = Lexicon.matches(entry.words[k], tokens[i + k].text);
    if (ok) return { entry, length: n };
  }
  const entry = lexicon.word(first);
  return entry ? { entry, length: 1 } : null;
}

/** Words (not punctuation) strictly between two token indexes. */
function wordsBetween(tokens: Token[], from: number, to: number): number {
  let n = 0;
  for (let k = from + 1; k < to; k++) if (tokens[k].type === 'word') n++;
  return n;
}

/** "can't recommend them highly enough", "can't thank you enough": the negation praises. */
function enoughFollows(tokens: Token[], end: number): boolean {
  for (let k = end; k < Math.min(tokens.length, end + 4); k++) {
    if (tokens[k].type === 'punct') return false;
    if (tokens[k].text === 'enough') return true;
  }
  return false;
}

/** What a negated word means when the lexicon does not say: not-joy is discontent, not-fear is mild relief. */
function negateByDefault(v: EmotionVector): EmotionVector {
  const out: EmotionVector = {};
  const joy = v.joy ?? 0;
  if (joy > 0) {
    out.anger = 0.55 * joy;
    out.sadness = 0.45 * joy;
  }
  const negative = Math.max(v.anger ?? 0, v.disgust ?? 0, v.fear ?? 0, v.sadness ?? 0);
  if (negative > 0) out.joy = 0.5 * negative;
  return out;
}

/** Intensifiers and downtoners just before the hit, and "at all" after a negated one. */
function modifierAround(tokens: Token[], start: number, end: number, negated: boolean): number {
  let factor = 1;
  let seen = 0;
  for (let k = start - 1; k >= 0 && seen < MODIFIER_WINDOW; k--) {
    const t = tokens[k];
    if (t.type !== 'word') break;
    seen++;
    const two = k > 0 ? `${tokens[k - 1].text} ${t.text}` : '';
    if (two && DOWNTONERS[two] !== undefined) {
      factor *= DOWNTONERS[two];
      k--;
      continue;
    }
    if (INTENSIFIERS[t.text] !== undefined) factor *= INTENSIFIERS[t.text];
    else if (DOWNTONERS[t.text] !== undefined) factor *= DOWNTONERS[t.text];
  }
  const after = tokens
    .slice(end, end + 2)
    .map((t) => t.text)
    .join(' ');
  if (after === 'so much' || after === 'very much') factor *= 1.5;
  if (negated && after === 'at all') factor *= 1.3;
  return Math.min(factor, 3);
}

/**
 * Weight of each token by the clause it sits in: a concession ("although ...", "despite ...")
 * and whatever comes before "but"/"however" count for less, the clause that answers them more.
 */
function clauseWeights(tokens: Token[]): number[] {
  const w = tokens.map(() => 1);
  const n = tokens.length;
  const isWordAt = (k: number) => k >= 0 && k < n && tokens[k].type === 'word';
  const hasWords = (from: number, to: number) => tokens.slice(from, to).some((t) => t.type === 'word');

  // concessions: from the opener to the next comma or semicolon
  for (let k = 0; k < n; k++) {
    const t = tokens[k].text;
    if (!CONCESSIVE_OPENERS.has(t) || !isWordAt(k)) continue;
    if (t === 'though' && !hasWords(k + 1, n)) continue; // sentence-final "though"
    if (t === 'while' && k > 0 && tokens[k - 1].text !== ',') continue; // "while" mid-clause is about time
    let stop = k + 1;
    while (stop < n && tokens[stop].text !== ',' && tokens[stop].text !== ';') stop++;
    const rest = hasWords(0, k) || hasWords(stop, n);
    if (!rest) continue;
    for (let j = 0; j < n; j++) w[j] *= j >= k && j < stop ? BEFORE_CONTRAST : AFTER_CONTRAST;
    break;
  }
  // contrasts: everything before the last "but"/"however" counts less, everything after more
  let last = -1;
  for (let k = 0; k < n; k++) {
    const t = tokens[k].text;
    if (t === 'but' || t === 'however' || t === 'nevertheless' || t === 'nonetheless') last = k;
    else if (t === 'yet' && (k === 0 || tokens[k - 1].type === 'punct' || tokens[k - 1].text === 'and') && tokens[k + 1]?.text !== 'again') last = k;
  }
  if (last > 0 && hasWords(0, last) && hasWords(last + 1, n)) {
    for (let j = 0; j < n; j++) w[j] *= j < last ? BEFORE_CONTRAST : AFTER_CONTRAST;
  }
  return w;
}

function add(raw: Record<FeltEmotion, number>, v: EmotionVector, weight: number) {
  for (const [e, x] of Object.entries(v) as Array<[FeltEmotion, number]>) raw[e] += x * weight;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
