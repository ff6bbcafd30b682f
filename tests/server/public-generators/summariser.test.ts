import { summarise, SummaryError } from '../../../plugins/public-generators/engine/summariser';
import { splitSentences } from '../../../plugins/public-generators/engine/text-tools';

const ARTICLE = `Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks. Our sensors clip onto existing pipes and listen for the sound of escaping water around the clock.

Cities lose up to thirty percent of their treated water to leaks. Brightwater helps utilities find those leaks within days instead of months, saving water, energy and money.

The platform ranks every leak alert by urgency, so repair crews go first where damage to the water network would be worst. Engineers see a live map of the whole water network on any device.

Our office dog is called Biscuit and enjoys long walks by the canal. Founded in 2019 in Rotterdam, Brightwater now monitors four thousand kilometres of pipe for forty water utilities.

Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks!
Subscribe to our newsletter for the latest news on leak detection and water networks. Cookies help us deliver our services.`;

describe('summarise', () => {
  it('returns at most five of the text’s own sentences, in original order', () => {
    const summary = summarise(ARTICLE);
    const all = splitSentences(ARTICLE.replace(/\n/g, ' '));
    expect(summary.sentences.length).toBe(5);
    for (const sentence of summary.sentences) expect(all).toContain(sentence);
    const positions = summary.sentences.map((s) => ARTICLE.indexOf(s));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(summary.text).toBe(summary.sentences.join(' '));
  });

  it('ranks central sentences above off-topic ones', () => {
    const summary = summarise(ARTICLE, { maxSentences: 3 });
    expect(summary.sentences[0]).toMatch(/^Brightwater Analytics builds acoustic sensors/);
    expect(summary.text).not.toMatch(/Biscuit|Cookies/);
  });

  it('drops near-identical sentences', () => {
    const summary = summarise(ARTICLE, { maxSentences: 8 });
    const builds = summary.sentences.filter((s) => s.includes('builds acoustic sensors'));
    expect(builds).toHaveLength(1);
  });

  it('keeps every sentence of a short text', () => {
    const text = 'Acme repairs bicycles in Leeds every day. Bikes are returned to customers the same afternoon.';
    expect(summarise(text).sentences).toEqual(['Acme repairs bicycles in Leeds every day.', 'Bikes are returned to customers the same afternoon.']);
  });

  it('does not split after abbreviations', () => {
    expect(splitSentences('Dr. Jones founded it in 2019. It grew fast.')).toEqual(['Dr. Jones founded it in 2019.', 'It grew fast.']);
  });

  it('refuses empty or too-short text with a clear error', () => {
    expect(() => summarise('')).toThrow(SummaryError);
    expect(() => summarise('Home. About. Contact.')).toThrow('There is not enough text on that page to summarise.');
    expect(() => summarise(ARTICLE, { maxSentences: 0 })).toThrow(SummaryError);
  });
});
