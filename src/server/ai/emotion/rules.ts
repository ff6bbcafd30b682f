/** Words and rules that modify emotion words rather than carry emotion themselves. */

/** Words that negate what follows them (within a short window, inside the clause). */
export const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nobody',
  'nothing',
  'none',
  'neither',
  'nor',
  'nowhere',
  'without',
  'hardly',
  'barely',
  'scarcely',
  'cannot',
  'lack',
  'lacks',
  'lacking',
  'lacked',
  'nope',
  'noone',
]);

/** "didn't", "can't", "won't", "isn't"... — and their apostrophe-less spellings. */
export function isNegator(word: string): boolean {
  return (
    NEGATORS.has(word) ||
    /n't$/.test(word) ||
    /^(?:dont|didnt|doesnt|cant|wont|isnt|wasnt|arent|werent|havent|hasnt|hadnt|couldnt|wouldnt|shouldnt|aint)$/.test(word)
  );
}

/** How many words after a negator it still reaches. */
export const NEGATION_WINDOW = 3;

/** Multipliers for words that strengthen the emotion word after them. */
export const INTENSIFIERS: Record<string, number> = {
  very: 1.5,
  really: 1.5,
  so: 1.5,
  extremely: 1.8,
  incredibly: 1.8,
  absolutely: 1.8,
  completely: 1.6,
  totally: 1.6,
  utterly: 1.8,
  deeply: 1.6,
  highly: 1.5,
  truly: 1.5,
  seriously: 1.4,
  terribly: 1.6,
  awfully: 1.5,
  exceptionally: 1.6,
  particularly: 1.3,
  especially: 1.3,
  most: 1.3,
  too: 1.3,
  super: 1.5,
  quite: 1.2,
  such: 1.3,
  overwhelmingly: 1.8,
  hugely: 1.6,
  immensely: 1.7,
  remarkably: 1.5,
  thoroughly: 1.5,
  bitterly: 1.6,
  genuinely: 1.4,
  entirely: 1.4,
  strongly: 1.5,
  massively: 1.6,
  insanely: 1.6,
  exceedingly: 1.7,
  unbelievably: 1.6,
  beyond: 1.4,
  more: 1.2,
  increasingly: 1.3,
  sincerely: 1.3,
  frankly: 1.1,
  honestly: 1.1,
  damn: 1.5,
  bloody: 1.5,
  absolute: 1.5,
  complete: 1.4,
  total: 1.4,
  real: 1.2,
  huge: 1.3,
  big: 1.1,
  deep: 1.3,
  'so much': 1.5,
};

/** Multipliers for words that soften the emotion word after them. */
export const DOWNTONERS: Record<string, number> = {
  slightly: 0.5,
  somewhat: 0.6,
  'a bit': 0.6,
  'a little': 0.6,
  'kind of': 0.6,
  'sort of': 0.6,
  fairly: 0.7,
  rather: 0.8,
  mildly: 0.5,
  marginally: 0.5,
  partly: 0.6,
  moderately: 0.6,
  relatively: 0.7,
  'a tad': 0.6,
  little: 0.7,
  bit: 0.7,
  pretty: 1.2,
  almost: 0.7,
  nearly: 0.7,
};

/** How many words before an emotion word an intensifier or downtoner still reaches. */
export const MODIFIER_WINDOW = 2;

/** Words after which the later clause dominates: "the demo was great, but the invoice is wrong". */
export const CONTRAST_WORDS = new Set(['but', 'however', 'nevertheless', 'nonetheless', 'although', 'though', 'yet', 'whereas', 'despite', 'except']);

/** Words opening a concession, whose clause (up to a comma) counts for less. */
export const CONCESSIVE_OPENERS = new Set(['although', 'though', 'despite', 'whereas', 'albeit', 'while']);

/** Weights of the clause before and after a contrast. */
export const BEFORE_CONTRAST = 0.5;
export const AFTER_CONTRAST = 1.4;

/** Words that mark a hypothetical or feared outcome ("we could lose the client"). */
export const HYPOTHETICAL_MARKERS = new Set(['if', 'could', 'might', 'may', 'unless', 'whether', 'risk', 'would', 'threat']);

/** Below this, an emotion's score is not evidence enough: the sentence is neutral. */
export const NEUTRAL_SCORE = 0.5;

/** Extra weight of a word written in capitals. */
export const CAPS_BOOST = 1.5;

/** Extra weight per exclamation mark (up to three). */
export const EXCLAMATION_BOOST = 0.15;
