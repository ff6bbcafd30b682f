import { writePitch, resolveVoice, VOICES, VoiceError } from '../../../plugins/public-generators/engine/voices';
import { extractFacts, CompanyFactsError } from '../../../plugins/public-generators/engine/company-facts';
import { jaccard, words } from '../../../plugins/public-generators/engine/text-tools';

const COMPANIES = [
  {
    companyName: 'Brightwater Analytics',
    companyDescription:
      'Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks. Founded in 2019 in Rotterdam, it now monitors four thousand kilometres of pipe for forty utilities.',
  },
  {
    companyName: 'Pedal Doctors',
    companyDescription:
      'We repair bicycles across Leeds and deliver them back to riders the same afternoon. Our mechanics carry every common part in their vans.',
  },
  { companyName: 'Nimbus Ledger', companyDescription: 'Cloud bookkeeping for small shops, with invoices matched to bank payments automatically.' },
];

describe('extractFacts', () => {
  it('splits the lead sentence into verb and object', () => {
    const facts = extractFacts(COMPANIES[0].companyName, COMPANIES[0].companyDescription);
    expect(facts.verb).toBe('builds');
    expect(facts.object).toMatch(/^acoustic sensors and cloud software that detect leaks/);
    expect(facts.supporting).toMatch(/^Founded in 2019 in Rotterdam/);
    expect(facts.keywords.slice(0, 2)).toEqual(['acoustic sensors', 'cloud software']);
  });

  it('turns first-person descriptions into third person', () => {
    const facts = extractFacts(COMPANIES[1].companyName, COMPANIES[1].companyDescription);
    expect(facts.verb).toBe('repairs');
    expect(facts.object).toMatch(/^bicycles across Leeds and delivers them back/);
    expect(facts.supporting).toMatch(/^Its mechanics carry/);
  });

  it('offers a noun phrase when there is no verb', () => {
    const facts = extractFacts(COMPANIES[2].companyName, COMPANIES[2].companyDescription);
    expect(facts.verb).toBe('offers');
    expect(facts.object).toMatch(/^cloud bookkeeping for small shops/);
  });

  it('refuses missing input with a clear message', () => {
    expect(() => extractFacts('', 'We do things well for people.')).toThrow(CompanyFactsError);
    expect(() => extractFacts('Acme', '  ')).toThrow('Please give a short description of what the company does.');
  });
});

describe('writePitch', () => {
  it('knows exactly the five voices of the spec', () => {
    expect(VOICES).toEqual(['Santa', 'Abraham Lincoln', 'Yoda', 'Steve Irwin', 'eminem rap']);
    expect(resolveVoice('  Eminem   RAP ')).toBe('eminem rap');
    expect(() => resolveVoice('Shakespeare')).toThrow(VoiceError);
    expect(() => writePitch({ ...COMPANIES[0], voice: 'Gollum' })).toThrow(/Please choose one of: Santa, Abraham Lincoln/);
  });

  it.each(COMPANIES)('gives $companyName five pitches that differ in most of their words', (company) => {
    const pitches = VOICES.map((voice) => writePitch({ ...company, voice }).template());
    const sets = pitches.map((p) => new Set(words(p)));
    for (let i = 0; i < sets.length; i++) {
      for (let j = i + 1; j < sets.length; j++) {
        expect({ pair: `${VOICES[i]} / ${VOICES[j]}`, similarity: jaccard(sets[i], sets[j]) < 0.5 }).toEqual({
          pair: `${VOICES[i]} / ${VOICES[j]}`,
          similarity: true,
        });
      }
    }
  });

  it.each(COMPANIES)('names $companyName and uses its facts in every voice', (company) => {
    const facts = extractFacts(company.companyName, company.companyDescription);
    for (const voice of VOICES) {
      const pitch = writePitch({ ...company, voice }).template();
      expect(pitch).toContain(company.companyName);
      expect(pitch.toLowerCase()).toContain(facts.object.toLowerCase().split(' ').slice(0, 3).join(' '));
      if (facts.supporting) expect(pitch.toLowerCase()).toContain(facts.supporting.toLowerCase().slice(0, 20));
      expect(pitch.split(/\s+/).length).toBeGreaterThan(45);
    }
  });

  it('gives each voice its own shapes', () => {
    const pitch = (voice: string) => writePitch({ ...COMPANIES[0], voice }).template();
    expect(pitch('Santa')).toMatch(/^Ho ho ho!/);
    expect(pitch('Santa')).toMatch(/Ho ho ho!$/);
    expect(pitch('Abraham Lincoln')).toMatch(/fourscore|fellow citizens|house divided/i);
    expect(pitch('Abraham Lincoln')).toMatch(/of the people|perish|remember/);
    // Yoda puts the object before the subject and verb.
    expect(pitch('Yoda')).toMatch(/Acoustic sensors and cloud software[^.]*(, Brightwater Analytics builds| — builds Brightwater Analytics)/);
    expect(pitch('Yoda')).toMatch(/hmm/i);
    expect(pitch('Steve Irwin')).toMatch(/Crikey|Strewth/);
    expect((pitch('Steve Irwin').match(/!/g) ?? []).length).toBeGreaterThanOrEqual(5);
    // AABB: the last words of each couplet rhyme (share their final two letters), in every variant.
    for (const company of COMPANIES) {
      const rap = writePitch({ ...company, voice: 'eminem rap' })
        .template()
        .split('\n');
      expect(rap.length % 2).toBe(0);
      expect(rap.length).toBeGreaterThanOrEqual(8);
      for (let i = 0; i < rap.length; i += 2) {
        const end = (line: string) =>
          line
            .replace(/[^a-z]+$/i, '')
            .slice(-2)
            .toLowerCase();
        expect(end(rap[i])).toBe(end(rap[i + 1]));
      }
    }
  });

  it('is deterministic per input and carries a prompt for a model', () => {
    const a = writePitch({ ...COMPANIES[1], voice: 'Yoda' });
    const b = writePitch({ ...COMPANIES[1], voice: 'Yoda' });
    expect(a.template()).toBe(b.template());
    expect(a.name).toBe('pitcher.pitch');
    expect(a.prompt).toContain('Pedal Doctors');
    expect(a.prompt).toContain('Voice: Yoda');
    expect(a.prompt).toContain('deliver them back to riders');
  });
});
