import type { FeltEmotion } from './emotions';
import { builtInLexicon, type Lexicon } from './lexicon';
import { HYPOTHETICAL_MARKERS, isNegator } from './rules';
import { tokenize } from './tokenizer';

/** Who reports a feeling: "I hate it", "I'm furious", "we are delighted". */
const SUBJECTS = new Set(['i', "i'm", 'im', 'we', "we're", "i've", 'ive', "we've"]);

/** Words allowed between the subject and the emotion word ("I am really so angry", "we have been worried"). */
const LINKS = new Set([
  'am',
  'are',
  'was',
  'were',
  'feel',
  'feeling',
  'felt',
  'really',
  'so',
  'just',
  'absolutely',
  'truly',
  'totally',
  'completely',
  'utterly',
  'very',
  'do',
  'still',
  'now',
  'been',
  'have',
  'get',
  'got',
  'getting',
  'quite',
  'genuinely',
  'seriously',
  'extremely',
  'deeply',
  'honestly',
  'already',
  'became',
  'become',
  'sincerely',
]);

/** Most words between the subject and the emotion word. */
const MAX_LINKS = 3;

/**
 * The lexicon weight an emotion word needs (its strongest emotion) and how many times stronger
 * than its next emotion that must be, for a self-report to decide the sentence. Chosen on
 * GoEmotions' dev split (weight 1, twice as strong: dev macro-F1 0.5716 → 0.5747 over the model
 * with the lexicon gate; weight 0: 0.5665, weight 1.2: 0.5733), never on its test split.
 */
export const SELF_REPORT_MIN_WEIGHT = 1;
export const SELF_REPORT_DOMINANCE = 2;

/**
 * The emotion a sentence states outright in the first person — "This is terrible and I hate
 * it." (anger), "I'm so scared we lose them" (fear) — or null. The speaker's own word for their
 * feeling outranks whatever the rest of the sentence suggests to a model trained on Reddit
 * (where "terrible" leans to fear). Not when negated ("I don't hate it"), not in a hypothetical
 * clause ("if I were angry"), and only for words of one clear emotion in the lexicon. With
 * several self-reports, the last one decides (the later clause of "I loved it, now I hate it").
 */
export function selfReportedEmotion(sentence: string, lexicon: Lexicon = builtInLexicon()): FeltEmotion | null {
  const tokens = tokenize(sentence);
  let found: FeltEmotion | null = null;
  let hypothetical = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'punct') hypothetical = false;
    else if (HYPOTHETICAL_MARKERS.has(token.text)) hypothetical = true;
    if (hypothetical || token.type !== 'word' || !SUBJECTS.has(token.text)) continue;
    let k = i + 1;
    while (k < tokens.length && k - i <= MAX_LINKS && LINKS.has(tokens[k].text)) k++;
    const word = tokens[k];
    if (!word || word.type !== 'word' || isNegator(word.text)) continue;
    const entry = lexicon.word(word.text);
    if (!entry) continue;
    const ranked = (Object.entries(entry.plain) as Array<[FeltEmotion, number]>).sort((a, b) => b[1] - a[1]);
    if (ranked.length === 0 || ranked[0][1] < SELF_REPORT_MIN_WEIGHT) continue;
    if (ranked.length > 1 && ranked[1][1] * SELF_REPORT_DOMINANCE > ranked[0][1]) continue;
    found = ranked[0][0];
  }
  return found;
}
