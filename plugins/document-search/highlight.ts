/** One piece of a search passage: plain text, or a matched word to highlight. */
export interface PassagePiece {
  text: string;
  marked: boolean;
}

const MARK = /<mark>([\s\S]*?)<\/mark>/g;

/**
 * Splits a passage from the server on its `<mark>…</mark>` markers so the page renders the
 * matched words as <mark> elements and everything else as text — never as HTML.
 */
export function splitMarks(passage: string): PassagePiece[] {
  const pieces: PassagePiece[] = [];
  let at = 0;
  for (const m of passage.matchAll(MARK)) {
    if (m.index > at) pieces.push({ text: passage.slice(at, m.index), marked: false });
    if (m[1]) pieces.push({ text: m[1], marked: true });
    at = m.index + m[0].length;
  }
  if (at < passage.length) pieces.push({ text: passage.slice(at), marked: false });
  return pieces;
}
