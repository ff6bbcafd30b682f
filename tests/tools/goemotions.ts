/**
 * GoEmotions (tests/fixtures/goemotions) read as Ekman's six emotions plus neutral, and the
 * figures the training script and the bench report on it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EMOTIONS, type Emotion } from '../../src/server/ai/emotion/emotions';

export const GOEMOTIONS_DIR = path.join(__dirname, '../fixtures/goemotions');

export interface EkmanRow {
  text: string;
  /** The distinct Ekman labels of the row's GoEmotions labels (one or more). */
  labels: Emotion[];
}

/** The 27 GoEmotions labels plus neutral mapped onto EMOTIONS through ekman_mapping.json. */
export function ekmanMap(dir = GOEMOTIONS_DIR): Emotion[] {
  const names = readFileSync(path.join(dir, 'emotions.txt'), 'utf8')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const mapping = JSON.parse(readFileSync(path.join(dir, 'ekman_mapping.json'), 'utf8')) as Record<string, string[]>;
  return names.map((name) => {
    if (name === 'neutral') return 'neutral';
    const ekman = Object.keys(mapping).find((k) => mapping[k].includes(name));
    if (!ekman || !(EMOTIONS as readonly string[]).includes(ekman)) throw new Error(`GoEmotions label ${name} has no Ekman class.`);
    return ekman as Emotion;
  });
}

/** One split (train, dev or test) as Ekman rows. */
export function readSplit(split: 'train' | 'dev' | 'test', dir = GOEMOTIONS_DIR): EkmanRow[] {
  const map = ekmanMap(dir);
  return readFileSync(path.join(dir, `${split}.tsv`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [text, ids] = line.split('\t');
      const labels = [...new Set(ids.split(',').map((id) => map[Number(id)]))];
      return { text, labels };
    });
}

export interface ClassFigures {
  emotion: Emotion;
  precision: number;
  recall: number;
  f1: number;
  /** Rows holding this label. */
  support: number;
}

export interface Figures {
  n: number;
  /** Share of rows whose predicted label is one of their labels. */
  accuracy: number;
  macroF1: number;
  perClass: ClassFigures[];
}

/**
 * One predicted label per row against the row's label set (the GoEmotions paper's per-label
 * counting: a row with labels {joy, surprise} predicted joy is a true positive for joy and a miss
 * for surprise). Macro-F1 is the plain mean over the seven labels.
 */
export function figures(rows: EkmanRow[], predicted: Emotion[]): Figures {
  const perClass = EMOTIONS.map((emotion) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    rows.forEach((row, i) => {
      const gold = row.labels.includes(emotion);
      const hit = predicted[i] === emotion;
      if (gold && hit) tp++;
      else if (hit) fp++;
      else if (gold) fn++;
    });
    const precision = tp + fp ? tp / (tp + fp) : 0;
    const recall = tp + fn ? tp / (tp + fn) : 0;
    return { emotion, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, support: tp + fn };
  });
  const correct = rows.filter((row, i) => row.labels.includes(predicted[i])).length;
  return { n: rows.length, accuracy: correct / rows.length, macroF1: perClass.reduce((s, c) => s + c.f1, 0) / perClass.length, perClass };
}
