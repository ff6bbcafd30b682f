import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  analyseText,
  classifyEmotion,
  EMOTIONS,
  EmptyTextError,
  LexiconEmotionAnalyser,
  LlmEmotionAnalyser,
  parseLabels,
  TextTooLongError,
} from '../../../../src/server/ai/emotion';
import type { TextGenerator, TextTask } from '../../../../src/server/ai/text-generation';

describe('analyseText', () => {
  it('returns one {emotion, text} per sentence', () => {
    expect(analyseText('The demo was great. But the invoice is wrong again and I am annoyed! Please call me.')).toEqual([
      { emotion: 'joy', text: 'The demo was great.' },
      { emotion: 'anger', text: 'But the invoice is wrong again and I am annoyed!' },
      { emotion: 'neutral', text: 'Please call me.' },
    ]);
  });

  it('refuses empty and oversized text with a clear error', async () => {
    expect(() => analyseText('   ')).toThrow(EmptyTextError);
    expect(() => analyseText('')).toThrow('Please enter some text to analyse; the text is empty.');
    expect(() => analyseText(undefined as unknown as string)).toThrow(EmptyTextError);
    expect(() => analyseText('x'.repeat(20_001))).toThrow(TextTooLongError);
    await expect(new LexiconEmotionAnalyser().analyse('')).rejects.toThrow(EmptyTextError);
  });
});

/** A generator that answers with a fixed text (or its template) and records the task. */
function fakeGenerator(answer: string | ((t: TextTask) => string), source: 'llm' | 'template' = 'llm') {
  const tasks: TextTask[] = [];
  const gen: TextGenerator = {
    async generate(task) {
      tasks.push(task);
      return { text: typeof answer === 'function' ? answer(task) : answer, source };
    },
  };
  return { gen, tasks };
}

describe('LlmEmotionAnalyser', () => {
  const text = 'Your courier was rude. The parcel arrived today.';

  it('asks for JSON labels per numbered sentence and uses a valid reply', async () => {
    const { gen, tasks } = fakeGenerator('{"emotions": ["anger", "joy"]}');
    expect(await new LlmEmotionAnalyser(gen).analyse(text)).toEqual([
      { emotion: 'anger', text: 'Your courier was rude.' },
      { emotion: 'joy', text: 'The parcel arrived today.' },
    ]);
    expect(tasks[0].json).toBe(true);
    expect(tasks[0].prompt).toBe('1. Your courier was rude.\n2. The parcel arrived today.');
    expect(tasks[0].system).toMatch(/anger, disgust, fear, joy, sadness, surprise, neutral/);
  });

  it.each([
    ['not JSON', 'anger, neutral'],
    ['wrong length', '{"emotions": ["anger"]}'],
    ['unknown label', '{"emotions": ["anger", "happy"]}'],
    ['wrong shape', '{"labels": ["anger", "neutral"]}'],
  ])('falls back to the lexicon on a bad reply (%s) and logs it', async (_why, reply) => {
    const warn = jest.fn();
    const { gen } = fakeGenerator(reply);
    expect(await new LlmEmotionAnalyser(gen, { warn }).analyse(text)).toEqual(analyseText(text));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("uses the lexicon's answer when the generator falls back to the template", async () => {
    const { gen } = fakeGenerator((t) => t.template(), 'template');
    expect(await new LlmEmotionAnalyser(gen).analyse(text)).toEqual(analyseText(text));
  });

  it('parseLabels accepts a bare array, objects with an emotion, code fences and any case', () => {
    expect(parseLabels('["Joy", "NEUTRAL"]', 2)).toEqual(['joy', 'neutral']);
    expect(parseLabels('```json\n{"emotions":[{"emotion":"fear","text":"x"}]}\n```', 1)).toEqual(['fear']);
    expect(parseLabels('{"emotions":[]}', 1)).toBeNull();
  });
});

describe('the labelled set', () => {
  const fixture = JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/emotion-sentences.json'), 'utf8')) as {
    items: Array<{ id: number; text: string; emotion: string; split: string; tags: string[] }>;
  };
  const items = fixture.items;

  it('has at least 170 distinct sentences, 18 per class, with a fixed ~30% held out', () => {
    expect(items.length).toBeGreaterThanOrEqual(170);
    expect(new Set(items.map((i) => i.text)).size).toBe(items.length);
    for (const e of EMOTIONS) expect(items.filter((i) => i.emotion === e).length).toBeGreaterThanOrEqual(18);
    const held = items.filter((i) => i.split === 'holdout').length / items.length;
    expect(held).toBeGreaterThan(0.28);
    expect(held).toBeLessThan(0.32);
    for (const tag of ['negation', 'contrast', 'intensifier', 'question']) expect(items.some((i) => i.tags.includes(tag))).toBe(true);
  });

  it('the built-in classifier stays at or above 85% accuracy on it (regression guard; figures from npm run bench)', () => {
    const correct = items.filter((i) => classifyEmotion(i.text).emotion === i.emotion).length;
    expect(correct / items.length).toBeGreaterThanOrEqual(0.85);
  });
});
