import { unzipSync } from 'fflate';
import {
  checkZipBudget,
  CsvFormatError,
  decodeText,
  DocumentReadError,
  HttpError,
  normaliseHeader,
  openCsv,
  readPdfBounded,
  ZipBudgetError,
} from '../../src/server';

/** The kinds of file the emotion page reads. */
export type TextFileKind = 'txt' | 'csv' | 'pdf' | 'docx';

/** What was read from a file: its blocks of text (paragraphs, CSV cells) and a sentence saying what was read. */
export interface FileText {
  kind: TextFileKind;
  /** Paragraphs (TXT, PDF, DOCX) or cells (CSV), in order; sentences never run from one block into the next. */
  blocks: string[];
  /** "Read all 3 pages." / "Read the Comment column (12 rows)." */
  read: string;
  /** Further plain sentences about the reading (scanned pages skipped, …). */
  notices: string[];
}

/** A DOCX is refused when its parts inflate past this (a "zip bomb"), before its text is taken. */
export const DOCX_BUDGET = { maxExpandedBytes: 32 * 1024 * 1024, maxRatio: 200, maxEntries: 2000 };

/** Headers that name the column of texts in a CSV (compared after normaliseHeader). */
const TEXT_HEADERS = ['text', 'texts', 'comment', 'comments', 'message', 'messages'];

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** A 422 about the file's content, in a sentence. */
const unreadable = (message: string) => new HttpError(422, message);

/** A plain-text file (UTF-8, with or without a byte-order mark): its paragraphs. */
export function readTxt(bytes: Uint8Array): FileText {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  const blocks = paragraphsOf(text);
  return { kind: 'txt', blocks, read: `Read ${plural(blocks.length, 'paragraph')}.`, notices: [] };
}

function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * A CSV of texts: the column named text, comment or message (first match), otherwise the column
 * whose cells are longest on average. Each non-blank cell is a block of its own.
 */
export async function readCsvTexts(name: string, bytes: Uint8Array): Promise<FileText> {
  const rows: string[][] = [];
  let headers: string[];
  try {
    const csv = await openCsv({ name, data: bytes });
    headers = csv.header.headers;
    await csv.stream((batch) => {
      for (const row of batch) rows.push(row);
    });
  } catch (error) {
    if (error instanceof CsvFormatError && error.row !== undefined && !/could not be read/.test(error.message)) throw unreadable(error.message);
    throw unreadable('This CSV file could not be read: its rows and columns are malformed.');
  }
  if (rows.length === 0) throw unreadable('This CSV file has a header row but no rows of text under it.');
  let column = headers.findIndex((h) => TEXT_HEADERS.includes(normaliseHeader(h)));
  if (column < 0) {
    let best = -1;
    for (let c = 0; c < headers.length; c++) {
      let total = 0;
      for (const row of rows) total += (row[c] ?? '').trim().length;
      if (total > best) {
        best = total;
        column = c;
      }
    }
  }
  const blocks = rows.map((row) => (row[column] ?? '').trim()).filter((cell) => cell !== '');
  const notices =
    blocks.length < rows.length
      ? [`${plural(rows.length - blocks.length, 'row')} had no text in that column and ${rows.length - blocks.length === 1 ? 'was' : 'were'} skipped.`]
      : [];
  return { kind: 'csv', blocks, read: `Read the ${headers[column]} column (${plural(rows.length, 'row')}).`, notices };
}

type PdfPage = Awaited<ReturnType<typeof readPdfBounded>>['pages'][number];

/** The text of a page's lines; a gap taller than a line between two lines starts a new paragraph. */
function pageParagraphs(page: PdfPage): string[] {
  const layout = 'page' in page ? page.page : page.textPage;
  const paragraphs: string[] = [];
  let current: string[] = [];
  let previous: (typeof layout.lines)[number] | undefined;
  for (const line of layout.lines) {
    if (previous && line.y - (previous.y + previous.height) > Math.max(previous.height, line.height) * 0.8 && current.length) {
      paragraphs.push(current.join('\n'));
      current = [];
    }
    if (line.text.trim() !== '') current.push(line.text.trim());
    previous = line;
  }
  if (current.length) paragraphs.push(current.join('\n'));
  return paragraphs;
}

/** A PDF's text layer, read in the bounded worker; says how many pages were read. */
export async function readPdfText(bytes: Uint8Array): Promise<FileText> {
  let read: Awaited<ReturnType<typeof readPdfBounded>>;
  try {
    // minTextChars 0: a page without text is not rendered (there is no OCR here), only counted
    read = await readPdfBounded(bytes, { minTextChars: 0 });
  } catch (error) {
    if (error instanceof DocumentReadError) {
      if (error.reason === 'too-large') throw new HttpError(413, error.message);
      if (error.reason === 'corrupt') throw unreadable('This PDF is damaged or incomplete, so its text could not be read.');
      throw unreadable(error.message);
    }
    throw error;
  }
  const blocks: string[] = [];
  let withoutText = 0;
  for (const page of read.pages) {
    const paragraphs = pageParagraphs(page);
    if (paragraphs.length === 0) withoutText++;
    blocks.push(...paragraphs);
  }
  const pagesRead = read.pages.length;
  const readSentence =
    pagesRead === read.pageCount
      ? pagesRead === 1
        ? 'Read the only page of the PDF.'
        : `Read all ${plural(pagesRead, 'page')} of the PDF.`
      : `Read the first ${plural(pagesRead, 'page')} of ${read.pageCount.toLocaleString('en-GB')}; split the PDF to analyse the rest.`;
  const notices: string[] = [];
  if (withoutText > 0 && blocks.length > 0) {
    notices.push(
      `${plural(withoutText, 'page')} ${withoutText === 1 ? 'has' : 'have'} no text layer (scanned) and ${withoutText === 1 ? 'was' : 'were'} skipped.`,
    );
  }
  if (blocks.length === 0) throw unreadable('This PDF has no text layer (it is a scan), so there are no sentences to analyse.');
  return { kind: 'pdf', blocks, read: readSentence, notices };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name] ?? whole;
  });
}

/** The paragraphs of a WordprocessingML body: the runs' text of each w:p, tabs and breaks as spaces. */
export function docxParagraphs(xml: string): string[] {
  const paragraphs: string[] = [];
  for (const part of xml.split(/<\/w:p>/)) {
    const start = part.search(/<w:p[\s>]/);
    if (start < 0) continue;
    let text = '';
    const run = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:(?:tab|br|cr)(?:\s[^>]*)?\/>/g;
    let m: RegExpExecArray | null;
    const body = part.slice(start);
    while ((m = run.exec(body))) text += m[1] !== undefined ? decodeXml(m[1]) : m[0].startsWith('<w:tab') ? ' ' : '\n';
    const trimmed = text.trim();
    if (trimmed !== '') paragraphs.push(trimmed);
  }
  return paragraphs;
}

/**
 * A Word document (DOCX): checked against DOCX_BUDGET before anything is inflated for keeps (the
 * product's bounded ZIP check, as for XLSX), then word/document.xml's paragraphs.
 */
export function readDocx(bytes: Uint8Array): FileText {
  try {
    checkZipBudget(bytes, DOCX_BUDGET);
  } catch (error) {
    if (error instanceof ZipBudgetError) {
      if (error.reason === 'damaged') throw unreadable('This Word document is damaged or incomplete, so its text could not be read.');
      throw new HttpError(
        413,
        `This Word document expands to far more than its size when opened (past ${DOCX_BUDGET.maxExpandedBytes / (1024 * 1024)} MB), so it was not opened.`,
      );
    }
    throw error;
  }
  let xml: Uint8Array | undefined;
  try {
    xml = unzipSync(bytes, { filter: (file) => file.name === 'word/document.xml' })['word/document.xml'];
  } catch {
    throw unreadable('This Word document is damaged or incomplete, so its text could not be read.');
  }
  if (!xml) throw unreadable('This file is a zip archive but not a Word document (DOCX), so it has no text to analyse.');
  const blocks = docxParagraphs(new TextDecoder('utf-8').decode(xml));
  return { kind: 'docx', blocks, read: `Read ${plural(blocks.length, 'paragraph')} of the Word document.`, notices: [] };
}
