/**
 * Emotion classifier benchmark: `npx tsx tests/bench/emotion.ts [--errors]`.
 * Prints accuracy and macro-F1 of the built-in lexicon classifier on the labelled business
 * sentences (tests/fixtures/emotion-sentences.json) — the whole set, the part used while tuning
 * and the fixed 30% held out from tuning — plus a confusion matrix and the speed. `--errors` lists
 * the misclassified sentences of the tuning part only (the held-out part stays unseen).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { classifyEmotion } from '../../src/server/ai/emotion/lexicon-classifier';
import { EMOTIONS, type Emotion } from '../../src/server/ai/emotion/emotions';

interface Item {
  id: number;
  text: string;
  emotion: Emotion;
  tags: string[];
  split: 'tune' | 'holdout';
}

const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/emotion-sentences.json'), 'utf8')) as { items: Item[] };
const items = fixture.items;

const predictions = new Map<number, Emotion>();
const t = performance.now();
for (const it of items) predictions.set(it.id, classifyEmotion(it.text).emotion);
const ms = performance.now() - t;

function metrics(subset: Item[]) {
  const correct = subset.filter((it) => predictions.get(it.id) === it.emotion).length;
  const f1s = EMOTIONS.map((e) => {
    const tp = subset.filter((it) => it.emotion === e && predictions.get(it.id) === e).length;
    const fp = subset.filter((it) => it.emotion !== e && predictions.get(it.id) === e).length;
    const fn = subset.filter((it) => it.emotion === e && predictions.get(it.id) !== e).length;
    const p = tp + fp ? tp / (tp + fp) : 0;
    const r = tp + fn ? tp / (tp + fn) : 0;
    return { e, p, r, f1: p + r ? (2 * p * r) / (p + r) : 0, n: tp + fn };
  });
  return { n: subset.length, accuracy: correct / subset.length, macroF1: f1s.reduce((s, x) => s + x.f1, 0) / f1s.length, f1s };
}

const pct = (x: number) => (x * 100).toFixed(1).padStart(5) + '%';
console.log(`Emotion classifier (built-in lexicon) on ${items.length} labelled business sentences\n`);
console.log('part                 n   accuracy   macro-F1');
for (const [name, subset] of [
  ['all', items],
  ['tuning part', items.filter((i) => i.split === 'tune')],
  ['held-out 30%', items.filter((i) => i.split === 'holdout')],
] as const) {
  const m = metrics(subset as Item[]);
  console.log(`${name.padEnd(16)} ${String(m.n).padStart(5)}   ${pct(m.accuracy)}     ${m.macroF1.toFixed(3)}`);
}

const all = metrics(items);
console.log('\nper class (all)     precision  recall   F1      n');
for (const x of all.f1s) console.log(`${x.e.padEnd(18)}  ${pct(x.p)}   ${pct(x.r)}   ${x.f1.toFixed(3)}  ${String(x.n).padStart(3)}`);

console.log('\nconfusion matrix (rows: label, columns: predicted)');
const short = (e: string) => e.slice(0, 5).padStart(6);
console.log('          ' + EMOTIONS.map(short).join(''));
for (const label of EMOTIONS) {
  const row = EMOTIONS.map((p) => String(items.filter((it) => it.emotion === label && predictions.get(it.id) === p).length).padStart(6));
  console.log(label.padEnd(10) + row.join(''));
}

console.log('\nby construction (all)');
for (const tag of ['negation', 'contrast', 'intensifier', 'question', 'emphasis', 'emoji']) {
  const subset = items.filter((i) => i.tags.includes(tag));
  if (subset.length) console.log(`${tag.padEnd(12)} ${String(subset.length).padStart(4)}   accuracy ${pct(metrics(subset).accuracy)}`);
}
console.log(`\nspeed: ${(items.length / (ms / 1000)).toFixed(0)} sentences/s (${(ms / items.length).toFixed(3)} ms each, first run included)`);

if (process.argv.includes('--errors')) {
  console.log('\nmisclassified (tuning part only):');
  for (const it of items.filter((i) => i.split === 'tune' && predictions.get(i.id) !== i.emotion)) {
    console.log(`  #${it.id} ${it.emotion} → ${predictions.get(it.id)}: ${it.text}`);
  }
}
