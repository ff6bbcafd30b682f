import { classifyEmotion, lemmaCandidates, parseLexicon, scoreSentence, tokenize } from '../../../../src/server/ai/emotion';

const emotion = (s: string) => classifyEmotion(s).emotion;

// Sentences here are deliberately not in the labelled set.
describe('classifyEmotion', () => {
  it.each([
    ['I am really angry about the repeated billing errors.', 'anger'],
    ['The canteen smelled of rotten eggs and the trays were filthy.', 'disgust'],
    ['Our staff are worried about the rumours of a takeover.', 'fear'],
    ['We are thrilled with the new branding.', 'joy'],
    ['We were saddened to hear about your loss.', 'sadness'],
    ['I was surprised by how quickly the visa was approved.', 'surprise'],
    ['The board meets on the first Tuesday of each month.', 'neutral'],
  ])('%s → %s', (s, e) => expect(emotion(s)).toBe(e));

  it('negation turns joy into discontent and a fear or sadness word into relief or less', () => {
    expect(emotion('I am happy with the new portal.')).toBe('joy');
    expect(emotion('I am not happy with the new portal.')).toBe('anger');
    expect(emotion("We weren't impressed by the presentation.")).not.toBe('joy');
    expect(emotion('The client was not disappointed in the slightest, quite the opposite.')).not.toBe('sadness');
  });

  it('negation of words that only matter when negated', () => {
    expect(emotion('My order has not arrived.')).toBe('anger');
    expect(emotion('My order has arrived.')).toBe('neutral');
    expect(emotion('Nobody expected the shares to double.')).toBe('surprise');
    expect(emotion("I can't believe they paid on time!")).toBe('surprise');
    expect(emotion("I can't thank your engineers enough.")).toBe('joy');
  });

  it('the clause after "but" or a concession dominates', () => {
    expect(emotion('The onsite team was lovely, but the final report is full of errors and I am furious.')).toBe('anger');
    expect(emotion('The install was slow, but the results are excellent.')).toBe('joy');
    expect(emotion('Although the price went up, we are delighted with the quality.')).toBe('joy');
    expect(emotion('Despite the good figures, I am worried about our cash flow.')).toBe('fear');
  });

  it('intensifiers raise and downtoners lower the evidence', () => {
    const plain = scoreSentence('I am annoyed.').raw.anger;
    expect(scoreSentence('I am extremely annoyed.').raw.anger).toBeGreaterThan(plain);
    expect(scoreSentence('I am slightly annoyed.').raw.anger).toBeLessThan(plain);
    expect(scoreSentence('I am a bit annoyed.').raw.anger).toBeLessThan(plain);
  });

  it('exclamation marks, capitals and emoji add emphasis', () => {
    expect(scoreSentence('This is unacceptable!!!').raw.anger).toBeGreaterThan(scoreSentence('This is unacceptable.').raw.anger);
    expect(scoreSentence('This is UNACCEPTABLE.').raw.anger).toBeGreaterThan(scoreSentence('This is unacceptable.').raw.anger);
    expect(emotion('The parcel is here 😊')).toBe('joy');
    expect(emotion('Still no update on my claim :(')).not.toBe('neutral');
    expect(emotion('The new contract was signed 😲')).toBe('surprise');
  });

  it('a possible loss reads as fear, a real one as sadness', () => {
    expect(emotion('We lost our biggest customer this year.')).toBe('sadness');
    expect(emotion('If the audit fails, we could lose our biggest customer.')).toBe('fear');
  });

  it('complaint questions read as anger, plain questions as neutral', () => {
    expect(emotion('Why has nobody replied to my last three e-mails?')).toBe('anger');
    expect(emotion('Could you confirm the delivery date?')).toBe('neutral');
  });

  it('polite business formulas stay neutral', () => {
    for (const s of [
      'Kind regards, Anna.',
      'Thank you for your message.',
      'Please do not reply to this e-mail.',
      'The gross margin was 41% in May.',
      'We received the goods on Monday.',
    ]) {
      expect(emotion(s)).toBe('neutral');
    }
  });

  it('scores are shares that sum to 1', () => {
    const { scores } = classifyEmotion('We are delighted but also a little nervous.');
    const total = Object.values(scores).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 2);
    expect(Object.keys(scores).sort()).toEqual(['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise']);
  });
});

describe('lexicon and tokens', () => {
  it('finds base forms of inflected words', () => {
    expect(lemmaCandidates('worried')).toContain('worry');
    expect(lemmaCandidates('stopped')).toContain('stop');
    expect(lemmaCandidates('happiness')).toContain('happy');
    expect(lemmaCandidates('irritated')).toContain('irritate');
  });

  it('parses the entry format', () => {
    expect(parseLexicon('happy = J1 ~A.6 S.5\nlose = S.6 ?F1\nexpect = ~U1.1\n# comment\nkindly =')).toEqual([
      { words: ['happy'], plain: { joy: 1 }, negated: { anger: 0.6, sadness: 0.5 } },
      { words: ['lose'], plain: { sadness: 0.6 }, hypothetical: { fear: 1 } },
      { words: ['expect'], plain: {}, negated: { surprise: 1.1 } },
      { words: ['kindly'], plain: {} },
    ]);
  });

  it('tokenizes words, capitals, contractions and emoticons', () => {
    expect(tokenize("I DON'T like re:(draft) :-( 👍")).toEqual([
      { text: 'i', type: 'word', caps: false },
      { text: "don't", type: 'word', caps: true },
      { text: 'like', type: 'word', caps: false },
      { text: 're', type: 'word', caps: false },
      { text: ':', type: 'punct', caps: false },
      { text: 'draft', type: 'word', caps: false },
      { text: ')', type: 'punct', caps: false },
      { text: ':-(', type: 'emoticon', caps: false },
      { text: '👍', type: 'emoticon', caps: false },
    ]);
  });
});
