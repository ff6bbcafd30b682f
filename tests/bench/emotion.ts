/**
 * Emotion classifier benchmark: `npm run bench:emotion [-- --errors]`.
 *
 * 1. GoEmotions' test split (tests/fixtures/goemotions, Reddit comments, Ekman's six emotions plus
 *    neutral): macro-F1, per-class precision/recall/F1 and accuracy of the built-in classifier
 *    (the committed model, whose features include the lexicon's evidence, with the lexicon's gate
 *    and the first-person self-report rule), beside it without the self-report rule, the model
 *    without the gate and the lexicon alone (the classifier before the model). One predicted label per comment against the comment's label set: a comment labelled
 *    {joy, surprise} predicted joy is a hit for joy and a miss for surprise; accuracy counts a
 *    prediction right when it is one of the labels. The training script never reads this split.
 * 2. The labelled business sentences (tests/fixtures/emotion-sentences.json): accuracy on the
 *    whole set, the tuning part and the 30% held out from tuning, with a confusion matrix.
 * 3. Time per sentence (median and 95th percentile, after loading the model).
 * `--errors` lists the misclassified business sentences of the tuning part only.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { builtInEmotionModel, fromScores } from '../../src/server/ai/emotion/emotion-model';
import { EMOTIONS, type Emotion } from '../../src/server/ai/emotion/emotions';
import { featurise } from '../../src/server/ai/emotion/features';
import { classifyEmotion } from '../../src/server/ai/emotion/lexicon-classifier';
import { figures, readSplit, type Figures } from '../tools/goemotions';

interface Item {
  id: number;
  text: string;
  emotion: Emotion;
  tags: string[];
  split: 'tune' | 'holdout';
}

const pct = (x: number) => (x * 100).toFixed(1).padStart(5) + '%';
const model = builtInEmotionModel();
const builtIn = (text: string) => model.classify(text).emotion;

// 1. GoEmotions test split
const test = readSplit('test');
const classifiers: Array<[string, (text: string) => Emotion]> = [
  ['built-in (model + lexicon)', builtIn],
  ['without the self-report rule', (text) => model.classifyByScores(text).emotion],
  ['model without the gate', (text) => fromScores(model.linearScores(featurise(text, model.header.features))).emotion],
  ['lexicon alone (before)', (text) => classifyEmotion(text).emotion],
];
console.log(
  `GoEmotions test split, Ekman labels: ${test.length} Reddit comments (${test.filter((r) => r.labels.length > 1).length} with more than one label)\n`,
);
console.log('classifier                    macro-F1   accuracy');
const results = new Map<string, Figures>();
for (const [name, classify] of classifiers) {
  const f = figures(
    test,
    test.map((r) => classify(r.text)),
  );
  results.set(name, f);
  console.log(`${name.padEnd(28)}   ${f.macroF1.toFixed(3)}     ${pct(f.accuracy)}`);
}
const main = results.get(classifiers[0][0])!;
console.log('\nper class (built-in)  precision  recall    F1      n');
for (const c of main.perClass)
  console.log(`${c.emotion.padEnd(20)}  ${pct(c.precision)}   ${pct(c.recall)}   ${c.f1.toFixed(3)}  ${String(c.support).padStart(5)}`);
const single = test.filter((r) => r.labels.length === 1);
const singleFigures = figures(
  single,
  single.map((r) => builtIn(r.text)),
);
console.log(`single-label comments only (${single.length}): macro-F1 ${singleFigures.macroF1.toFixed(3)}, accuracy ${pct(singleFigures.accuracy)}`);

// 2. business sentences
const items = (JSON.parse(readFileSync(path.join(__dirname, '../fixtures/emotion-sentences.json'), 'utf8')) as { items: Item[] }).items;
const predictions = new Map<number, Emotion>(items.map((it) => [it.id, builtIn(it.text)]));
console.log(`\nBusiness sentences (tests/fixtures/emotion-sentences.json), built-in classifier\n`);
console.log('part                 n   accuracy   macro-F1');
for (const [name, subset] of [
  ['all', items],
  ['tuning part', items.filter((i) => i.split === 'tune')],
  ['held-out 30%', items.filter((i) => i.split === 'holdout')],
] as const) {
  const f = figures(
    subset.map((it) => ({ text: it.text, labels: [it.emotion] })),
    subset.map((it) => predictions.get(it.id)!),
  );
  console.log(`${name.padEnd(16)} ${String(f.n).padStart(5)}   ${pct(f.accuracy)}     ${f.macroF1.toFixed(3)}`);
}
const lexiconRight = (subset: Item[]) => subset.filter((it) => classifyEmotion(it.text).emotion === it.emotion).length / subset.length;
console.log(`lexicon alone (before): all ${pct(lexiconRight(items))}, held-out 30% ${pct(lexiconRight(items.filter((i) => i.split === 'holdout')))}`);
const withoutSelfReport = (subset: Item[]) => subset.filter((it) => model.classifyByScores(it.text).emotion === it.emotion).length / subset.length;
console.log(
  `without the self-report rule: all ${pct(withoutSelfReport(items))}, held-out 30% ${pct(withoutSelfReport(items.filter((i) => i.split === 'holdout')))}`,
);
console.log('\nconfusion matrix (rows: label, columns: predicted)');
const short = (e: string) => e.slice(0, 5).padStart(6);
console.log('          ' + EMOTIONS.map(short).join(''));
for (const label of EMOTIONS) {
  const row = EMOTIONS.map((p) => String(items.filter((it) => it.emotion === label && predictions.get(it.id) === p).length).padStart(6));
  console.log(label.padEnd(10) + row.join(''));
}

// 3. speed
const sentences = test.slice(0, 2000).map((r) => r.text);
for (const s of test.slice(-200)) builtIn(s.text); // warm-up
const times: number[] = [];
for (const s of sentences) {
  const t = performance.now();
  builtIn(s);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(
  `\nspeed: ${at(0.5).toFixed(3)} ms median, ${at(0.95).toFixed(3)} ms p95 per sentence (${sentences.length} comments, model loaded and warmed up; load average ${loadavg()[0].toFixed(1)})`,
);

if (process.argv.includes('--errors')) {
  console.log('\nmisclassified business sentences (tuning part only):');
  for (const it of items.filter((i) => i.split === 'tune' && predictions.get(i.id) !== i.emotion)) {
    console.log(`  #${it.id} ${it.emotion} → ${predictions.get(it.id)}: ${it.text}`);
  }
}
