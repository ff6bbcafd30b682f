import { decapitalise, splitSentences, STOP_WORDS, words } from './text-tools';

/**
 * Reads a company description into the facts a pitch or press release is built from: what the
 * company does (as a verb and an object, so templates can reorder them), a supporting fact, and
 * its key terms.
 */

export interface CompanyFacts {
  name: string;
  /** Third-person verb, e.g. "builds". */
  verb: string;
  /** What the verb acts on, e.g. "acoustic sensors that detect leaks in water networks". */
  object: string;
  /** A second fact from the description (without the final full stop), if there is one. */
  supporting?: string;
  /** Up to four key phrases of the description (multi-word phrases first, original spelling). */
  keywords: string[];
}

/** The description is empty or unusable. */
export class CompanyFactsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompanyFactsError';
  }
}

const SUBJECT_PRONOUNS = /^(we|they|it|our (?:company|team|firm|mission)|the (?:company|team|firm))\b\s*(?:is|are)?\s*/i;
const FIRST_PERSON = /^(we|they)\b/i;
const MAX_OBJECT_WORDS = 22;
/** Verbs often coordinated in a company's first sentence ("we design and build…"). */
const COMMON_VERBS = [
  'analyse',
  'analyze',
  'automate',
  'build',
  'connect',
  'create',
  'deliver',
  'design',
  'develop',
  'fix',
  'grow',
  'help',
  'host',
  'install',
  'maintain',
  'make',
  'manage',
  'offer',
  'protect',
  'provide',
  'repair',
  'run',
  'sell',
  'serve',
  'ship',
  'support',
  'teach',
  'train',
  'turn',
  'keep',
  'bring',
  'give',
];

/** Third person singular of a base verb ("build" → "builds", "carry" → "carries"). */
function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  if (verb === 'have') return 'has';
  return `${verb}s`;
}

/** Base form of a third-person verb, for "they …" sentences ("builds" → "build", "is" → "are"). */
export function baseForm(verb: string): string {
  if (verb === 'is') return 'are';
  if (verb === 'has') return 'have';
  if (verb === 'does') return 'do';
  if (/[^aeiou]ies$/.test(verb)) return `${verb.slice(0, -3)}y`;
  if (/(sh|ch|x|z|ss|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.replace(/s$/, '');
}

/** Trims a clause to a readable length at a word boundary, dropping a dangling function word. */
function shorten(clause: string, maxWords: number): string {
  const list = clause.replace(/[.!?;:]+$/, '').split(/\s+/);
  if (list.length <= maxWords) return list.join(' ');
  const cut = list.slice(0, maxWords);
  while (cut.length > 3 && STOP_WORDS.has(cut[cut.length - 1].toLowerCase().replace(/[,;]$/, ''))) cut.pop();
  return cut.join(' ').replace(/[,;]$/, '');
}

/** Splits "builds X" / "is a X" into verb and object; anything else is offered as a noun phrase. */
function verbAndObject(clause: string, thirdPersonNeeded: boolean): { verb: string; object: string } {
  const [first, ...rest] = clause.split(/\s+/);
  const lower = first.toLowerCase();
  if (rest.length > 0 && /^[a-z]+$/.test(first)) {
    if (['is', 'are'].includes(lower)) return { verb: 'is', object: rest.join(' ') };
    if (thirdPersonNeeded) return { verb: thirdPerson(lower), object: rest.join(' ') };
    if (/[^s]s$/.test(lower) || lower.endsWith('es')) return { verb: lower, object: rest.join(' ') };
  }
  return { verb: 'offers', object: decapitalise(clause) };
}

/**
 * Key phrases: runs of 1–3 content words between stop words and punctuation, in order of
 * appearance, skipping the company's own name and the lead verb ("acoustic sensors",
 * "cloud software", "city water networks").
 */
function keyPhrases(text: string, name: string, verb: string): string[] {
  const nameWords = new Set(words(name));
  const phrases: string[] = [];
  const seen = new Set<string>();
  for (const chunk of text.split(/[,.;:!?()—–]+/)) {
    let run: string[] = [];
    const flush = () => {
      const phrase = run.slice(-3).join(' ');
      const key = phrase.toLowerCase();
      if (phrase && (run.length > 1 || phrase.length >= 5) && !seen.has(key)) {
        seen.add(key);
        phrases.push(phrase);
      }
      run = [];
    };
    for (const token of chunk.split(/\s+/).filter(Boolean)) {
      const word = token.toLowerCase().replace(/[^\p{L}\p{N}'-]/gu, '');
      if (!word || STOP_WORDS.has(word) || /^\d/.test(word) || nameWords.has(word) || word === verb) flush();
      else run.push(token.replace(/[^\p{L}\p{N}'-]/gu, ''));
    }
    flush();
  }
  // Multi-word phrases read better in a pitch; single words fill in after them.
  return [...phrases.filter((p) => p.includes(' ')), ...phrases.filter((p) => !p.includes(' '))].slice(0, 4);
}

/** Escapes text for use inside a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Extracts facts from a company's name and description (a sentence or a page summary).
 * Throws CompanyFactsError when either is empty.
 */
export function extractFacts(companyName: string, description: string): CompanyFacts {
  const name = companyName.trim().replace(/\s+/g, ' ');
  if (!name) throw new CompanyFactsError('Please give the company name.');
  const sentences = splitSentences(description ?? '').filter((s) => words(s).length >= 3);
  if (sentences.length === 0) throw new CompanyFactsError('Please give a short description of what the company does.');

  let lead = sentences[0].replace(/[.!?]+$/, '');
  const nameAtStart = new RegExp(`^(?:the\\s+)?${escape(name)}(?:\\s+(?:inc|ltd|llc|gmbh|b\\.v|s\\.a)\\.?)?[,:]?\\s+`, 'i');
  let thirdPersonNeeded = false;
  if (nameAtStart.test(lead)) {
    lead = lead.replace(nameAtStart, '');
  } else if (SUBJECT_PRONOUNS.test(lead)) {
    thirdPersonNeeded = FIRST_PERSON.test(lead);
    lead = lead.replace(SUBJECT_PRONOUNS, '');
  }
  const { verb, object: rawObject } = verbAndObject(lead, thirdPersonNeeded);
  // "We repair bikes and deliver them": the coordinated verb needs the third person too.
  const object = thirdPersonNeeded
    ? rawObject.replace(new RegExp(`\\b(and|or|then) (${COMMON_VERBS.join('|')})\\b`, 'g'), (_m, conj: string, v: string) => `${conj} ${thirdPerson(v)}`)
    : rawObject;

  const supportingSentence = sentences[1];
  // Told about the company, not by it: "Our mechanics…" → "Its mechanics…", "We also…" → "They also…".
  const supporting = supportingSentence
    ? shorten(supportingSentence, 24)
        .replace(/^Our\b/, 'Its')
        .replace(/^We\b/, 'They')
    : undefined;

  const keywords = keyPhrases([object, supporting ?? ''].join(', '), name, verb);
  return { name, verb, object: shorten(object, MAX_OBJECT_WORDS), supporting, keywords };
}
