import { pressReleaseTasks, restate, PressReleaseError } from '../../../plugins/public-generators/engine/press-release';
import { jaccard, words } from '../../../plugins/public-generators/engine/text-tools';

const SITE = {
  title: 'Brightwater Analytics | Water monitoring for cities',
  description: 'Brightwater Analytics builds sensors and software that detect leaks in city water networks.',
  siteName: 'Brightwater',
  url: 'https://brightwater.example/',
  mainText: [
    'Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks. Our sensors clip onto existing pipes and listen for the sound of escaping water around the clock.',
    'Cities lose up to thirty percent of their treated water to leaks. Brightwater helps utilities find those leaks within days instead of months, saving water, energy and money.',
    'The platform ranks every alert by urgency, so repair crews go first where damage would be worst.',
    'Founded in 2019 in Rotterdam, Brightwater now monitors more than four thousand kilometres of pipe for forty utilities across Europe.',
  ].join('\n\n'),
};
const INPUT = { companyName: 'Brightwater Analytics', productName: 'LeakWatch 2', site: SITE, date: new Date('2026-03-05T12:00:00Z') };

describe('pressReleaseTasks', () => {
  const tasks = pressReleaseTasks(INPUT);
  const one = tasks.paraphrase1.template();
  const two = tasks.paraphrase2.template();

  it('writes a headline from the company, product and site tagline', () => {
    expect(tasks.title.template()).toBe('Brightwater Analytics Launches LeakWatch 2: Water Monitoring for Cities');
  });

  it.each([
    ['version 1', () => one],
    ['version 2', () => two],
  ])('%s has the shape of a press release', (_label, text) => {
    const release = text();
    expect(release.split('\n')[0]).toBe('BRIGHTWATER ANALYTICS LAUNCHES LEAKWATCH 2: WATER MONITORING FOR CITIES');
    expect(release).toMatch(/\n\n5 March 2026 — /); // dateline
    expect(release).toMatch(/LeakWatch 2/);
    expect(release).toMatch(/spokesperson for Brightwater Analytics/); // quote
    expect(release).toMatch(/\n\nAbout Brightwater Analytics\n/); // boilerplate
    expect(release).toContain('https://brightwater.example/');
  });

  it('carries the site’s facts in both versions', () => {
    for (const release of [one, two]) {
      expect(release).toMatch(/thirty percent/);
      expect(release).toMatch(/Rotterdam/);
      expect(release).toMatch(/four thousand kilometres/);
      expect(release).toMatch(/leaks in city water networks/);
    }
  });

  it('says them in different words', () => {
    expect(one).not.toBe(two);
    const sentencesOne = new Set(one.split(/(?<=[.!?])\s+/));
    const shared = two.split(/(?<=[.!?])\s+/).filter((s) => sentencesOne.has(s) && s.length > 30);
    expect(shared).toEqual([]);
    expect(jaccard(new Set(words(one)), new Set(words(two)))).toBeLessThan(0.75);
  });

  it('restates sentences with synonyms, keeping case', () => {
    expect(restate('Brightwater finds leaks quickly, instead of slowly.')).toBe('Brightwater locates leaks rapidly, rather than slowly.');
    expect(restate('Every alert')).toBe('Each alert');
  });

  it('gives models the facts and the structure', () => {
    expect(tasks.paraphrase1.prompt).toContain('Product: LeakWatch 2');
    expect(tasks.paraphrase1.prompt).toMatch(/About/);
    expect(tasks.paraphrase2.prompt).toContain(one);
    expect(tasks.title.name).toBe('mia.press-release.title');
  });

  it('refuses missing input with clear messages', () => {
    expect(() => pressReleaseTasks({ ...INPUT, productName: ' ' })).toThrow(PressReleaseError);
    expect(() => pressReleaseTasks({ ...INPUT, site: { ...SITE, description: '', mainText: 'Home. Menu.' } })).toThrow(
      'The website has too little text to write a press release from.',
    );
  });
});
