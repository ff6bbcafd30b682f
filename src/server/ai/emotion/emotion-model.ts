import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EMOTIONS, type Emotion, type EmotionScores } from './emotions';
import { featurise, type FeatureConfig, type SparseVector } from './features';
import { classifyEmotion, type EmotionClassification } from './lexicon-classifier';
import { selfReportedEmotion } from './self-report';

/** Where the committed weights live (written by tests/tools/train-emotion.ts). */
export const MODEL_DIR = path.join(__dirname, 'model');
export const MODEL_FILE = 'emotion-model.json';
export const WEIGHTS_FILE = 'emotion-weights.bin';

/** The JSON half of a trained model: settings, per-class scales and biases, and how it was made. */
export interface EmotionModelHeader {
  format: 1;
  /** The class order of the weight rows: always EMOTIONS. */
  labels: Emotion[];
  features: FeatureConfig;
  /** Per class, added to the score (trained bias plus the offset chosen on the dev split). */
  bias: number[];
  /** Per class, the int8 weight times scale is the real weight. */
  scales: number[];
  /** How much the lexicon's share of evidence for each label adds to the model's score. */
  lexiconWeight: number;
  /**
   * When the lexicon finds an emotion with at least this share of its evidence, its label
   * stands (the business phrasing it was written for); null: never.
   */
  lexiconGate: number | null;
  /** Free-form record of the data, settings and dev figures the weights came from. */
  training: Record<string, unknown>;
}

/** A multinomial logistic regression over hashed word and character n-grams. */
export class EmotionModel {
  private readonly classes: number;

  constructor(
    readonly header: EmotionModelHeader,
    /** int8 weights, bucket-major: weights[bucket * classes + class]. */
    readonly weights: Int8Array,
  ) {
    this.classes = header.labels.length;
    if (header.labels.join() !== EMOTIONS.join()) throw new Error(`Emotion model labels ${header.labels.join(', ')} are not ${EMOTIONS.join(', ')}.`);
    if (weights.length !== header.features.buckets * this.classes) {
      throw new Error(`Emotion model weights hold ${weights.length} values; ${header.features.buckets} buckets × ${this.classes} labels were expected.`);
    }
  }

  /** The linear score of each label for a featurised sentence (lexicon not included). */
  linearScores(x: SparseVector): Float64Array {
    const k = this.classes;
    const acc = new Float64Array(k);
    for (let i = 0; i < x.indices.length; i++) {
      const row = x.indices[i] * k;
      const v = x.values[i];
      for (let c = 0; c < k; c++) acc[c] += this.weights[row + c] * v;
    }
    const { scales, bias } = this.header;
    for (let c = 0; c < k; c++) acc[c] = acc[c] * scales[c] + bias[c];
    return acc;
  }

  /**
   * One label and the probability of each, for one sentence. The label is the model's, unless
   * the lexicon is sure enough to stand (the gate) or the sentence states its emotion outright in
   * the first person ("… and I hate it": selfReportedEmotion), which outranks both.
   */
  classify(sentence: string): EmotionClassification {
    const result = this.classifyByScores(sentence);
    const reported = selfReportedEmotion(sentence);
    return reported ? { ...result, emotion: reported } : result;
  }

  /** The model's label with the lexicon's weight and gate, before the self-report rule. */
  classifyByScores(sentence: string): EmotionClassification {
    const { lexiconWeight: beta, lexiconGate: gate, features } = this.header;
    const lexicon = beta || gate !== null || features.lexiconWeight ? classifyEmotion(sentence) : undefined;
    const scores = this.linearScores(featurise(sentence, features, lexicon));
    if (!lexicon) return fromScores(scores);
    EMOTIONS.forEach((e, c) => (scores[c] += beta * lexicon.scores[e]));
    const result = fromScores(scores);
    return lexiconStands(lexicon, gate) ? { ...result, emotion: lexicon.emotion } : result;
  }
}

/** True when the lexicon's label is an emotion it is sure enough of to stand. */
export function lexiconStands(lexicon: EmotionClassification, gate: number | null): boolean {
  return gate !== null && lexicon.emotion !== 'neutral' && lexicon.scores[lexicon.emotion] >= gate;
}

/** Softmax of the scores and the best label (the first in EMOTIONS order on a tie). */
export function fromScores(scores: ArrayLike<number>): EmotionClassification {
  let best = 0;
  let max = -Infinity;
  for (let c = 0; c < EMOTIONS.length; c++) if (scores[c] > max) [max, best] = [scores[c], c];
  let total = 0;
  const exp = EMOTIONS.map((_, c) => Math.exp(scores[c] - max));
  for (const x of exp) total += x;
  const probabilities = {} as EmotionScores;
  EMOTIONS.forEach((e, c) => (probabilities[e] = Math.round((exp[c] / total) * 1000) / 1000));
  return { emotion: EMOTIONS[best], scores: probabilities };
}

/** Reads a model written by the training script (the JSON header and the int8 weights beside it). */
export function loadEmotionModel(dir: string = MODEL_DIR): EmotionModel {
  const header = JSON.parse(readFileSync(path.join(dir, MODEL_FILE), 'utf8')) as EmotionModelHeader;
  if (header.format !== 1) throw new Error(`Emotion model format ${String(header.format)} is not supported.`);
  const bytes = readFileSync(path.join(dir, WEIGHTS_FILE));
  return new EmotionModel(header, new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

let shared: EmotionModel | undefined;

/** The committed model, read once on first use. */
export function builtInEmotionModel(): EmotionModel {
  return (shared ??= loadEmotionModel());
}

/** The label of one sentence from the committed model (with the lexicon as one of its inputs). */
export function classifySentence(sentence: string): EmotionClassification {
  return builtInEmotionModel().classify(sentence);
}
