import type { TextTask } from '../../../src/server';
import type { PageContent } from '../../../src/server';
import { extractFacts, type CompanyFacts } from './company-facts';
import { summarise, SummaryError } from './summariser';
import { capitalise, contentTerms, hash, jaccard, pick, terminate } from './text-tools';

/**
 * /mia press releases: a headline and two versions of a release (dateline, lead paragraph with
 * who and what, the site's own facts, a quote, an "About" boilerplate) built from what the
 * company's website says. The two versions carry the same facts in different words; a model,
 * when configured, gets the same facts and is asked for the same shape.
 */

export interface PressReleaseInput {
  companyName: string;
  productName: string;
  site: Pick<PageContent, 'title' | 'description' | 'mainText' | 'siteName'> & { url?: string };
  /** Release date (default today). */
  date?: Date;
}

export interface PressReleaseTasks {
  title: TextTask;
  paraphrase1: TextTask;
  paraphrase2: TextTask;
}

/** Input that cannot make a press release. */
export class PressReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PressReleaseError';
  }
}

/** Word swaps used to restate the site's sentences in the second version. */
const SYNONYMS: Record<string, string> = {
  build: 'create',
  builds: 'creates',
  building: 'creating',
  customers: 'clients',
  customer: 'client',
  find: 'locate',
  finds: 'locates',
  fast: 'quick',
  quickly: 'rapidly',
  every: 'each',
  offers: 'provides',
  offer: 'provide',
  provides: 'supplies',
  provide: 'supply',
  improve: 'enhance',
  improves: 'enhances',
  reduce: 'cut',
  reduces: 'cuts',
  start: 'begin',
  starts: 'begins',
  see: 'view',
  sees: 'views',
  show: 'display',
  shows: 'displays',
  use: 'employ',
  uses: 'employs',
  make: 'produce',
  makes: 'produces',
  big: 'large',
  large: 'sizeable',
  small: 'compact',
  new: 'fresh',
  whole: 'entire',
  now: 'today',
  lose: 'waste',
  lost: 'wasted',
  team: 'staff',
  teams: 'staff',
  run: 'operate',
  runs: 'operates',
  across: 'throughout',
  around: 'round',
  saving: 'conserving',
  save: 'conserve',
  saves: 'conserves',
  worst: 'most severe',
  best: 'finest',
  many: 'numerous',
  main: 'principal',
  simple: 'straightforward',
  easy: 'effortless',
  get: 'obtain',
  gets: 'obtains',
  need: 'require',
  needs: 'requires',
  buy: 'purchase',
  choose: 'select',
  chooses: 'selects',
  detect: 'spot',
  detects: 'spots',
  listen: 'tune in',
  works: 'operates',
  work: 'operate',
  keep: 'maintain',
  keeps: 'maintains',
  rank: 'prioritise',
  ranks: 'prioritises',
  within: 'in',
};

/** Restates a sentence with synonyms (case kept), so version two is not a copy of version one. */
export function restate(sentence: string): string {
  const phrased = sentence
    .replace(/\binstead of\b/g, 'rather than')
    .replace(/\bmore than\b/g, 'over')
    .replace(/\bup to\b/g, 'as much as');
  return phrased.replace(/\b[\p{L}]+\b/gu, (word) => {
    const swap = SYNONYMS[word.toLowerCase()];
    if (!swap) return word;
    return word[0] === word[0].toUpperCase() && word[0] !== word[0].toLowerCase() ? capitalise(swap) : swap;
  });
}

/** A site sentence told about the company: "Our X…" → "The company's X…"; "We…" is quoted. */
function thirdPersonSentence(sentence: string, company: string): string {
  if (/^Our\b/.test(sentence)) return sentence.replace(/^Our\b/, "The company's");
  if (/^We\b/.test(sentence)) return `In ${company}'s words: "${sentence}"`;
  return sentence;
}

/** Title Case for headline words (short function words stay lower case). */
function titleCase(text: string): string {
  const small = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);
  return text
    .split(/\s+/)
    .map((w, i) => (i > 0 && small.has(w.toLowerCase()) ? w.toLowerCase() : capitalise(w)))
    .join(' ');
}

/** The site title's tagline ("Brand | Tagline" → "Tagline") when it says more than the name. */
function tagline(title: string, companyName: string): string | undefined {
  const parts = title
    .split(/\s[|–—-]\s|:\s/)
    .map((p) => p.trim())
    .filter(Boolean);
  const name = companyName.toLowerCase();
  const candidate = parts.find((p) => !p.toLowerCase().includes(name) && p.split(/\s+/).length >= 2);
  return candidate && candidate.length <= 70 ? candidate : undefined;
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

interface ReleaseFacts {
  company: string;
  product: string;
  headline: string;
  dateline: string;
  facts: CompanyFacts;
  highlights: string[];
  url?: string;
  seed: number;
}

/** Collects what both versions say. */
function gatherFacts(input: PressReleaseInput): ReleaseFacts {
  const company = input.companyName?.trim();
  const product = input.productName?.trim();
  if (!company) throw new PressReleaseError('Please give the company name.');
  if (!product) throw new PressReleaseError('Please give the product name.');
  let summary: string[] = [];
  try {
    summary = summarise(input.site.mainText, { maxSentences: 5 }).sentences;
  } catch (error) {
    if (!(error instanceof SummaryError)) throw error;
  }
  const description = input.site.description || summary[0] || '';
  if (!description) throw new PressReleaseError('The website has too little text to write a press release from.');
  // The lead already tells the description; highlights must add to it, not repeat it.
  const leadTerms = new Set(contentTerms(description));
  const highlights = summary
    .filter((sentence) => sentence !== description && jaccard(new Set(contentTerms(sentence)), leadTerms) < 0.5)
    .slice(0, 4)
    // a heading chosen as a sentence ends with a full stop instead of running into the next one
    .map((sentence) => thirdPersonSentence(terminate(sentence), company));
  const facts = extractFacts(company, description);
  const tag = tagline(input.site.title ?? '', company);
  const headline = tag ? `${company} Launches ${product}: ${titleCase(tag)}` : `${company} Launches ${product}`;
  return {
    company,
    product,
    headline,
    dateline: formatDate(input.date ?? new Date()),
    facts,
    highlights,
    url: input.site.url,
    seed: hash(`${company}\n${product}`),
  };
}

function versionOne(f: ReleaseFacts): string {
  const about = `${f.company} ${f.facts.verb} ${f.facts.object}.${f.url ? ` More at ${f.url}.` : ''}`;
  const quote = pick(
    [
      `"${f.product} brings together everything our customers have asked us for," said a spokesperson for ${f.company}. "We can't wait to see what people do with it."`,
      `"With ${f.product}, we are taking the next step in what ${f.company} does best," said a spokesperson for ${f.company}.`,
    ],
    f.seed,
    1,
  );
  return [
    f.headline.toUpperCase(),
    `${f.dateline} — ${f.company} today announced the launch of ${f.product}. ${f.company} ${f.facts.verb} ${f.facts.object}, and ${f.product} is its latest step in that work.`,
    ...(f.highlights.length > 0 ? [f.highlights.join(' ')] : []),
    quote,
    `${f.product} is available from today${f.url ? ` at ${f.url}` : ''}.`,
    `About ${f.company}\n${about}`,
  ].join('\n\n');
}

function versionTwo(f: ReleaseFacts): string {
  const about = `${f.company}, the company behind ${f.product}, ${restate(f.facts.verb)} ${restate(f.facts.object)}.${
    f.url ? ` Its website is ${f.url}.` : ''
  }`;
  const quote = pick(
    [
      `According to a spokesperson for ${f.company}: "We built ${f.product} so that the people we serve get more done with less effort."`,
      `A spokesperson for ${f.company} commented: "${f.product} is the result of listening closely to the people who rely on us."`,
    ],
    f.seed,
    2,
  );
  return [
    f.headline.toUpperCase(),
    `${f.dateline} — ${f.product}, the newest offering from ${f.company}, is available as of today. The company ${restate(f.facts.verb)} ${restate(f.facts.object)}.`,
    ...(f.highlights.length > 0 ? [`Key facts:\n${f.highlights.map((h) => `- ${restate(h)}`).join('\n')}`] : []),
    quote,
    `To learn more about ${f.product}, visit ${f.url ?? `the ${f.company} website`}.`,
    `About ${f.company}\n${about}`,
  ].join('\n\n');
}

function factSheet(f: ReleaseFacts): string {
  return [
    `Company: ${f.company}`,
    `Product: ${f.product}`,
    `Date: ${f.dateline}`,
    `What the company does: ${f.company} ${f.facts.verb} ${f.facts.object}.`,
    ...(f.highlights.length > 0 ? [`From the website:\n${f.highlights.map((h) => `- ${h}`).join('\n')}`] : []),
    ...(f.url ? [`Website: ${f.url}`] : []),
  ].join('\n');
}

const SYSTEM =
  'You are a communications writer. Write factual press releases using only the facts given; never invent ' +
  'figures, names, customers or quotes attributed to named people (quotes come from "a spokesperson"). Plain text.';

/**
 * Builds the three text tasks of a /mia press release: the headline and two versions of the
 * release with the same facts in different words. Throws PressReleaseError for missing input.
 */
export function pressReleaseTasks(input: PressReleaseInput): PressReleaseTasks {
  const f = gatherFacts(input);
  const facts = factSheet(f);
  const first = versionOne(f);
  return {
    title: {
      name: 'mia.press-release.title',
      system: SYSTEM,
      prompt: `${facts}\n\nWrite one press-release headline (at most 14 words, title case) announcing the product. Reply with the headline only.`,
      template: () => f.headline,
      maxTokens: 40,
    },
    paraphrase1: {
      name: 'mia.press-release.version-1',
      system: SYSTEM,
      prompt:
        `${facts}\n\nWrite a press release of 150 to 250 words: the headline in capitals, a dateline starting with the date, ` +
        'a lead paragraph saying who launched what, a paragraph of facts from the website, one quote from a spokesperson, ' +
        'where to find the product, and an "About" paragraph about the company.',
      template: () => first,
      maxTokens: 600,
    },
    paraphrase2: {
      name: 'mia.press-release.version-2',
      system: SYSTEM,
      prompt:
        `${facts}\n\nHere is a press release built from these facts:\n\n${first}\n\n` +
        'Rewrite it with exactly the same facts and the same parts (headline, dateline, lead, facts, quote, about) ' +
        'but in different words and sentence structure throughout.',
      template: () => versionTwo(f),
      maxTokens: 600,
    },
  };
}
