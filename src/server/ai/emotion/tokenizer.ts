/** One unit of a sentence as the classifier sees it. */
export interface Token {
  /** Lower-case word, punctuation mark, or the emoticon/emoji itself. */
  text: string;
  type: 'word' | 'punct' | 'emoticon';
  /** Written in capitals (two letters or more): shouting, when the word carries emotion. */
  caps: boolean;
}

const EMOTICON = String.raw`(?:[:;=8][-'^]?[()DPpOo/\\|\]\[*3]+|<3|\(:|\):)`;
const EMOJI = String.raw`\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*`;
const WORD = String.raw`[\p{L}\p{N}]+(?:['’][\p{L}]+)*`;
const PUNCT = String.raw`[.,;:!?…()"“”]|--|—|–`;
const TOKEN_RE = new RegExp(`(${EMOTICON})|(${EMOJI})|(${WORD})|(${PUNCT})`, 'gu');

/**
 * Splits a sentence into lower-case words (hyphenated words split, curly apostrophes made
 * straight), punctuation that bounds clauses, and emoticons/emoji, remembering which words were
 * written in capitals.
 */
export function tokenize(sentence: string): Token[] {
  const tokens: Token[] = [];
  for (const m of sentence.matchAll(TOKEN_RE)) {
    if (m[1] !== undefined || m[2] !== undefined) {
      // an emoticon needs a space or start/end around it, so "re:(draft)" is not a frown
      const at = m.index ?? 0;
      const before = sentence[at - 1];
      if (m[1] !== undefined && before !== undefined && /[\p{L}\p{N}]/u.test(before)) {
        tokens.push({ text: m[1][0] === ':' ? ':' : m[1][0], type: 'punct', caps: false });
        continue;
      }
      tokens.push({ text: m[0], type: 'emoticon', caps: false });
    } else if (m[3] !== undefined) {
      const raw = m[3].replace(/’/g, "'");
      const caps = raw.length >= 2 && /\p{Lu}/u.test(raw) && raw === raw.toUpperCase() && !/\d/.test(raw);
      tokens.push({ text: raw.toLowerCase(), type: 'word', caps });
    } else {
      tokens.push({ text: m[4] === '“' || m[4] === '”' ? '"' : m[4], type: 'punct', caps: false });
    }
  }
  return tokens;
}
