import { EmptyTextError, type EmotionAnalyser } from '../../src/server';
import type { FileText, TextFileKind } from './file-text';

/** Most sentences one file analysis labels; the rest of a longer file is left out, and the reply says so. */
export const MAX_FILE_SENTENCES = 5_000;
/** Characters sent to the analyser at once (its own limit is 20,000). */
export const CHUNK_CHARS = 10_000;

/** The seven labels, in the order shares with equal counts are listed. */
const LABEL_ORDER = ['joy', 'surprise', 'sadness', 'fear', 'anger', 'disgust', 'neutral'];

type Labelled = Awaited<ReturnType<EmotionAnalyser['analyse']>>[number];

export interface EmotionShare {
  emotion: string;
  count: number;
  /** Percentage of the analysed sentences, one decimal. */
  percent: number;
}

/** The reply of POST /api/plugins/emotion-analysis/file. */
export interface FileAnalysis {
  file: { name: string; kind: TextFileKind };
  /** What was read, as a sentence. */
  read: string;
  notices: string[];
  /** Every analysed sentence with its emotion, in file order. */
  sentences: Labelled[];
  /** Each emotion found, most frequent first. */
  shares: EmotionShare[];
  /** True when the file had more than MAX_FILE_SENTENCES sentences. */
  capped: boolean;
}

/**
 * Cuts a block longer than `max` characters at the last sentence end before the limit (else the
 * last line break or space), so the analyser receives whole sentences.
 */
export function piecesOf(block: string, max = CHUNK_CHARS): string[] {
  const pieces: string[] = [];
  let rest = block;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = -1;
    const ends = /[.!?…]["'”’)\]]*\s/g;
    let m: RegExpExecArray | null;
    while ((m = ends.exec(window))) cut = m.index + m[0].length;
    if (cut <= 0) cut = window.lastIndexOf('\n') + 1;
    if (cut <= 0) cut = window.lastIndexOf(' ') + 1;
    if (cut <= 0) cut = max;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.trim() !== '') pieces.push(rest);
  return pieces;
}

/** Groups blocks into texts of at most `max` characters, blocks separated by a blank line (a paragraph break to the splitter). */
export function* chunksOf(blocks: readonly string[], max = CHUNK_CHARS): Generator<string> {
  let current = '';
  for (const block of blocks) {
    for (const piece of piecesOf(block, max)) {
      if (current !== '' && current.length + 2 + piece.length > max) {
        yield current;
        current = '';
      }
      current = current === '' ? piece : `${current}\n\n${piece}`;
    }
  }
  if (current.trim() !== '') yield current;
}

/** Each emotion's count and share of `sentences`, most frequent first (ties in LABEL_ORDER). */
export function sharesOf(sentences: readonly Labelled[]): EmotionShare[] {
  const counts = new Map<string, number>();
  for (const s of sentences) counts.set(s.emotion, (counts.get(s.emotion) ?? 0) + 1);
  const rank = (e: string) => (LABEL_ORDER.includes(e) ? LABEL_ORDER.indexOf(e) : LABEL_ORDER.length);
  return [...counts]
    .map(([emotion, count]) => ({ emotion, count, percent: Math.round((count / sentences.length) * 1000) / 10 }))
    .sort((a, b) => b.count - a.count || rank(a.emotion) - rank(b.emotion));
}

/**
 * Labels every sentence of a file's text with the analyser (the page's own, so a configured chat
 * model answers here too), a chunk at a time, up to MAX_FILE_SENTENCES. Between chunks the event
 * loop gets a turn, so a long file does not hold up other requests.
 */
export async function analyseFileText(
  analyser: Pick<EmotionAnalyser, 'analyse'>,
  name: string,
  text: FileText,
  maxSentences = MAX_FILE_SENTENCES,
): Promise<FileAnalysis> {
  const sentences: Labelled[] = [];
  let capped = false;
  for (const chunk of chunksOf(text.blocks)) {
    let labelled: Labelled[];
    try {
      labelled = await analyser.analyse(chunk);
    } catch (error) {
      if (error instanceof EmptyTextError) continue; // a chunk of punctuation or symbols only
      throw error;
    }
    for (const s of labelled) {
      if (sentences.length === maxSentences) {
        capped = true;
        break;
      }
      sentences.push(s);
    }
    if (capped) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const notices = [...text.notices];
  if (capped) {
    notices.push(
      `The file holds more than ${maxSentences.toLocaleString('en-GB')} sentences, the most one analysis reads: the first ${maxSentences.toLocaleString('en-GB')} were analysed and the rest left out.`,
    );
  }
  return { file: { name, kind: text.kind }, read: text.read, notices, sentences, shares: sharesOf(sentences), capped };
}
