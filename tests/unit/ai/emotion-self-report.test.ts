import { builtInEmotionModel } from '../../../src/server/ai/emotion/emotion-model';
import { selfReportedEmotion } from '../../../src/server/ai/emotion/self-report';

describe('selfReportedEmotion', () => {
  it.each([
    ['This is terrible and I hate it.', 'anger'],
    ['I am furious that my order was cancelled again.', 'anger'],
    ["I'm so scared we lose them.", 'fear'],
    ['We are really delighted with the result.', 'joy'],
    ['I loved the first version, now I hate it.', 'anger'],
  ])('%s → %s', (sentence, emotion) => {
    expect(selfReportedEmotion(sentence)).toBe(emotion);
  });

  it.each([
    ["I don't hate it."], // negated
    ['I do not hate it.'], // negated after a link word
    ['If I were angry I would say so.'], // hypothetical clause
    ['This is terrible.'], // no first-person statement
    ['I think it is fine.'], // not an emotion word
    ['I have a meeting at 3 pm.'], // "have" then a word the lexicon does not know
  ])('%s → null', (sentence) => {
    expect(selfReportedEmotion(sentence)).toBeNull();
  });

  it("decides the built-in classifier's label, where the model trained on Reddit reads 'terrible' as fear", () => {
    const model = builtInEmotionModel();
    expect(model.classifyByScores('This is terrible and I hate it.').emotion).toBe('fear');
    expect(model.classify('This is terrible and I hate it.').emotion).toBe('anger');
    expect(model.classify('I love it.').emotion).toBe('joy');
  });
});
