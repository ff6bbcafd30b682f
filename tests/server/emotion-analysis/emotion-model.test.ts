import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  builtInEmotionModel,
  EmotionModel,
  loadEmotionModel,
  MODEL_DIR,
  MODEL_FILE,
  WEIGHTS_FILE,
  type EmotionModelHeader,
} from '../../../src/server/ai/emotion/emotion-model';
import { EMOTIONS } from '../../../src/server/ai/emotion/emotions';
import { featurise, fnv1a } from '../../../src/server/ai/emotion/features';

describe('the committed emotion model', () => {
  it('loads from src/server/ai/emotion/model with the seven labels and one int8 row per bucket', () => {
    const header = JSON.parse(readFileSync(path.join(MODEL_DIR, MODEL_FILE), 'utf8')) as EmotionModelHeader;
    const model = loadEmotionModel();
    expect(model.header).toEqual(header);
    expect(model.header.labels).toEqual([...EMOTIONS]);
    expect(model.weights).toBeInstanceOf(Int8Array);
    expect(model.weights.length).toBe(header.features.buckets * EMOTIONS.length);
    expect(readFileSync(path.join(MODEL_DIR, WEIGHTS_FILE)).length).toBe(model.weights.length);
    expect(header.bias).toHaveLength(EMOTIONS.length);
    expect(header.scales).toHaveLength(EMOTIONS.length);
    expect(builtInEmotionModel()).toBe(builtInEmotionModel());
  });

  it('answers one of the seven labels with probabilities that sum to 1 (speed: npm run bench:emotion)', () => {
    const model = builtInEmotionModel();
    const sentences = [
      'Thank you so much, this is wonderful!',
      'The meeting is at 3 pm.',
      'I am terrified we will lose the contract.',
      'wtf is this garbage',
      '',
      '🙂',
    ];
    for (let i = 0; i < 2; i++) {
      for (const s of sentences) {
        const r = model.classify(s);
        expect(EMOTIONS).toContain(r.emotion);
        expect(Object.values(r.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
      }
    }
    expect(model.classify('Thank you so much, this is wonderful!').emotion).toBe('joy');
    expect(model.classify('The meeting is at 3 pm.').emotion).toBe('neutral');
  });
});

describe('loadEmotionModel', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'emotion-model-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const header = (over: Partial<EmotionModelHeader> = {}): EmotionModelHeader => ({
    format: 1,
    labels: [...EMOTIONS],
    features: { buckets: 1 << 16, charNgrams: [3, 3], charWeight: 0 },
    bias: [0, 0, 0, 0, 0, 0, 0.5],
    scales: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1],
    lexiconWeight: 0,
    lexiconGate: null,
    training: {},
    ...over,
  });
  const write = (h: EmotionModelHeader, weights: Int8Array) => {
    writeFileSync(path.join(dir, MODEL_FILE), JSON.stringify(h));
    writeFileSync(path.join(dir, WEIGHTS_FILE), weights);
  };

  it('reads the header and int8 weights and scores as scale × weight · features + bias', () => {
    const h = header();
    const weights = new Int8Array(h.features.buckets * 7);
    const mask = h.features.buckets - 1;
    weights[(fnv1a('w:splendid') & mask) * 7 + EMOTIONS.indexOf('joy')] = 100;
    weights[(fnv1a('w:dreadful') & mask) * 7 + EMOTIONS.indexOf('fear')] = 120;
    write(h, weights);
    const model = loadEmotionModel(dir);
    expect(model).toBeInstanceOf(EmotionModel);
    expect(model.classify('splendid').emotion).toBe('joy');
    expect(model.classify('dreadful').emotion).toBe('fear');
    expect(model.classify('nothing known here').emotion).toBe('neutral');

    const x = featurise('splendid', h.features);
    const joyValue = x.values[x.indices.indexOf(fnv1a('w:splendid') & mask)];
    const scores = model.linearScores(x);
    expect(scores[EMOTIONS.indexOf('joy')]).toBeCloseTo(0.1 * 100 * joyValue, 5);
    expect(scores[EMOTIONS.indexOf('neutral')]).toBeCloseTo(0.5, 5);
    const p = model.classify('splendid').scores;
    const expJoy = Math.exp(10 * joyValue);
    expect(p.joy).toBeCloseTo(expJoy / (expJoy + 5 + Math.exp(0.5)), 3);
  });

  it('lets a sure lexicon label stand when the model has a gate', () => {
    const h = header({ lexiconGate: 0.5, bias: [0, 0, 0, 0, 0, 0, 5] });
    write(h, new Int8Array(h.features.buckets * 7));
    const model = loadEmotionModel(dir);
    expect(model.classify('I am absolutely furious about this!').emotion).toBe('anger');
    expect(model.classify('The report is attached.').emotion).toBe('neutral');
  });

  it('refuses weights of the wrong size, other labels and unknown formats with a clear message', () => {
    write(header(), new Int8Array(10));
    expect(() => loadEmotionModel(dir)).toThrow(`Emotion model weights hold 10 values; 65536 buckets × 7 labels were expected.`);
    write(header({ labels: ['joy', 'anger', 'disgust', 'fear', 'sadness', 'surprise', 'neutral'] }), new Int8Array((1 << 16) * 7));
    expect(() => loadEmotionModel(dir)).toThrow(
      'Emotion model labels joy, anger, disgust, fear, sadness, surprise, neutral are not anger, disgust, fear, joy, sadness, surprise, neutral.',
    );
    write({ ...header(), format: 2 as 1 }, new Int8Array((1 << 16) * 7));
    expect(() => loadEmotionModel(dir)).toThrow('Emotion model format 2 is not supported.');
  });
});
