/**
 * Splits running text (an e-mail, a review, a ticket) into sentences. Ends a sentence at `.`, `!`
 * or `?` followed by space — but not after common abbreviations (Dr., e.g., p.m., Inc.), inside
 * numbers (1,250.50), e-mail addresses or URLs — and at a paragraph break, or a line break after
 * a line that already ends in punctuation (so "Hi John," is its own line while hard-wrapped
 * sentences stay whole). Emoticons and emoji after the full stop stay with their sentence.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const block of paragraphs(text)) {
    let start = 0;
    const re = /[.!?…]+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(block))) {
      let end = m.index + m[0].length;
      // closing quotes and brackets belong to the sentence they close
      while (end < block.length && /["'”’)\]]/.test(block[end])) end++;
      const rest = block.slice(end);
      if (rest !== '' && !/^\s/.test(rest)) continue; // "1.5", "a.b@c.com", "example.com/x"
      if (m[0] === '.' && isAbbreviation(block.slice(start, m.index), rest)) continue;
      // trailing emoticons / emoji stay with this sentence: "Thanks! :) See you"
      const trail = /^(\s*(?:[:;=8][-']?[()DPpOo/\\|\]\[]+|\p{Extended_Pictographic}[\uFE0F\u200D\p{Extended_Pictographic}]*))+/u.exec(rest);
      if (trail) end += trail[0].length;
      push(sentences, block.slice(start, end));
      start = end;
    }
    push(sentences, block.slice(start));
  }
  return sentences;
}

function push(out: string[], s: string) {
  const t = s.replace(/\s+/g, ' ').trim();
  if (/[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(t) || /[:;=][-']?[()DP]/.test(t)) out.push(t);
}

/** Paragraphs, and lines that end in punctuation, are separate blocks. */
function paragraphs(text: string): string[] {
  const blocks: string[] = [];
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let current = '';
    for (const line of para.split('\n')) {
      const t = line.trim();
      if (t === '') continue;
      current = current ? `${current} ${t}` : t;
      if (/[.!?…:;,)\]]$|\p{Extended_Pictographic}$/u.test(t) || /^[-*•]\s/.test(t)) {
        blocks.push(current);
        current = '';
      }
    }
    if (current) blocks.push(current);
  }
  return blocks;
}

const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st mt vs etc approx dept est fig inc ltd co corp plc llc tel ext ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun ' +
    'e.g i.e a.m p.m u.s u.k e.u cf al ref refs attn re fwd'
  ).split(' '),
);

/** True when the dot ending `before` is an abbreviation's, not a sentence end. */
function isAbbreviation(before: string, after: string): boolean {
  const word = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
  if (word === '') return false;
  const bare = word.replace(/^\.+/, '');
  // "a.m." / "p.m." end sentences only when a capitalised word follows... which is usual for a new
  // sentence, so for these we look ahead: "at 3 p.m. to discuss" continues, "at 3 p.m. Then" ends.
  if (bare === 'a.m' || bare === 'p.m' || bare === 'etc') return !/^\s+[A-Z]/.test(after);
  if (bare === 'no' || bare === 'nos') return /^\s+\d/.test(after); // "No. 5", but "I said no. Then"
  if (ABBREVIATIONS.has(bare)) return true;
  if (/^(?:\p{L}\.)+\p{L}$/u.test(bare)) return true; // initials: "J.R", "U.S.A"
  if (/^\p{Lu}$/u.test(bare) && /^\s+\p{Lu}/u.test(after)) return true; // "J. Smith"
  return false;
}
