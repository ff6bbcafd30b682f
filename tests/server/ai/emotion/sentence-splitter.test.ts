import { splitSentences } from '../../../../src/server/ai/emotion';

describe('splitSentences', () => {
  it('splits on full stops, exclamation and question marks', () => {
    expect(splitSentences('The invoice is attached. Is the total right? Great work!')).toEqual([
      'The invoice is attached.',
      'Is the total right?',
      'Great work!',
    ]);
  });

  it('keeps abbreviations, decimals, e-mail addresses and URLs inside the sentence', () => {
    expect(splitSentences('Dr. Smith paid £1,250.50 on 3 Jan. to Acme Inc. via j.doe@example.com today. See www.example.com/terms for details.')).toEqual([
      'Dr. Smith paid £1,250.50 on 3 Jan. to Acme Inc. via j.doe@example.com today.',
      'See www.example.com/terms for details.',
    ]);
    expect(splitSentences('We meet at 3 p.m. to discuss it, e.g. the budget. Then we leave.')).toEqual([
      'We meet at 3 p.m. to discuss it, e.g. the budget.',
      'Then we leave.',
    ]);
    expect(splitSentences('I said no. Then he left. See item No. 5 please.')).toEqual(['I said no.', 'Then he left.', 'See item No. 5 please.']);
  });

  it('handles runs of punctuation, quotes and trailing emoticons or emoji', () => {
    expect(splitSentences('Really?! "It arrived." Thanks :) See you soon 😊 Bye.')).toEqual(['Really?!', '"It arrived."', 'Thanks :) See you soon 😊 Bye.']);
    expect(splitSentences('Loved it! 😍 Will order again.')).toEqual(['Loved it! 😍', 'Will order again.']);
  });

  it('splits e-mail lines that end in punctuation but keeps hard-wrapped sentences whole', () => {
    expect(splitSentences('Hi John,\n\nthe parcel arrived\ndamaged and late.\nRegards,\nAnna')).toEqual([
      'Hi John,',
      'the parcel arrived damaged and late.',
      'Regards,',
      'Anna',
    ]);
  });

  it('returns nothing for blank or punctuation-only text', () => {
    expect(splitSentences('   \n ... !!')).toEqual([]);
  });
});
