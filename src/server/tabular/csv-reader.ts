/**
 * CSV reading for the reconciliation engine: PapaParse underneath, with the things real exports
 * need on top — UTF-8/UTF-16/Windows-1252 decoding and BOMs, delimiter detection (',', ';', tab,
 * '|') from the header line, header normalisation, and amount cells read by ./amount (thousands
 * separators, decimal commas, currency symbols, accounting negatives) naming file, row and column.
 *
 * Rows are delivered in batches of arrays (no per-row objects), so a million-row file costs one
 * PapaParse pass and the caller keeps only what it needs. Text already in memory is fed to
 * PapaParse as a stream of 64 KB pieces too: its string mode parses chunk after chunk by
 * recursion, which keeps every chunk's rows reachable until the end and makes the garbage
 * collector promote them all; streamed pieces die young.
 */
import Papa from 'papaparse';
import { Readable } from 'node:stream';
import { parseAmount } from './amount';

/** Raw CSV content: text, bytes, or a Node readable stream of bytes/text. */
export type CsvData = string | Uint8Array | NodeJS.ReadableStream;

/** A named CSV input; the name appears in every error message. */
export interface CsvSource {
  name: string;
  data: CsvData;
  /** Row budget: a file with more data rows than this is refused (CsvFormatError) as soon as it passes it. */
  maxRows?: number;
}

/** What the header row told us about a file. */
export interface CsvHeader {
  fileName: string;
  /** Header cells, trimmed; blank ones become "Column N". */
  headers: string[];
  delimiter: string;
  /** True when amounts are likely written 1.234,50 (the file is ';'-delimited). */
  decimalComma: boolean;
}

/** A whole file in memory: the header and every data row as an array of cells. */
export interface CsvTable extends CsvHeader {
  rows: string[][];
  /** Spreadsheet row number of each row (the header is row 1); differs from index + 2 when blank lines were skipped. */
  rowNumbers: number[];
}

/** A malformed file: the message names the file and, when known, the row and column. */
export class CsvFormatError extends Error {
  constructor(
    message: string,
    readonly fileName: string,
    readonly row?: number,
    readonly column?: string,
  ) {
    super(message);
    this.name = 'CsvFormatError';
  }
}

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'];

/**
 * Turns file bytes into text: honours UTF-8 and UTF-16 byte-order marks, and falls back to
 * Windows-1252 (what Excel writes on many desktops) when the bytes are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The first record of the text (up to the first line break outside quotes). */
function firstRecord(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (!quoted && (c === 10 || c === 13)) return text.slice(0, i);
  }
  return text;
}

/**
 * Picks the delimiter of a CSV from its header line: the candidate (',', ';', tab, '|') that
 * occurs most often outside quotes. A single-column file falls back to ','.
 */
export function detectDelimiter(headerLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const candidate of CANDIDATE_DELIMITERS) {
    let count = 0;
    let quoted = false;
    for (let i = 0; i < headerLine.length; i++) {
      const ch = headerLine[i];
      if (ch === '"') quoted = !quoted;
      else if (!quoted && ch === candidate) count++;
    }
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The comparable form of a header or label: lower case, accents removed, every run of
 * non-alphanumerics turned into one space, trimmed. "Unit Price (€)" → "unit price".
 */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function cleanHeaders(cells: string[]): string[] {
  return cells.map(
    (cell, i) =>
      cell
        .replace(/^\ufeff/, '')
        .replace(/\s+/g, ' ')
        .trim() || `Column ${i + 1}`,
  );
}

/** The handlers streamCsv calls: the header once, then batches of rows. */
export interface CsvRowHandlers {
  onHeader?(header: CsvHeader): void;
  /** `rowNumbers[i]` is the spreadsheet row number of `rows[i]` (header = row 1). */
  onRows(rows: string[][], rowNumbers: number[]): void;
}

/** A record with no content: an empty line, or one holding only blanks. */
function isBlank(row: string[]): boolean {
  for (const cell of row) if (cell.trim() !== '') return false;
  return true;
}

/** The size of the text pieces PapaParse parses at a time: small enough that a piece's rows die in the young generation. */
const CHUNK_SIZE = 64 * 1024;

/** Text in pieces of at most CHUNK_SIZE characters. */
function* pieces(texts: Iterable<string>): Generator<string> {
  for (const text of texts) {
    if (text.length <= CHUNK_SIZE) {
      if (text) yield text;
      continue;
    }
    for (let i = 0; i < text.length; i += CHUNK_SIZE) yield text.slice(i, i + CHUNK_SIZE);
  }
}

async function* asyncPieces(texts: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const text of texts) yield* pieces([text]);
}

function describePapaError(source: string, error: Papa.ParseError, rowNumber: number): CsvFormatError {
  const problem =
    error.code === 'MissingQuotes'
      ? 'a quoted field is not closed (a " is missing)'
      : error.code === 'InvalidQuotes'
        ? 'a quote appears in the middle of an unquoted field'
        : error.message.toLowerCase();
  return new CsvFormatError(`The file "${source}" is malformed at row ${rowNumber}: ${problem}.`, source, rowNumber);
}

/** Turns a byte or text stream into a stream of correctly decoded strings (multi-byte characters split across chunks included). */
async function* decodeStream(stream: NodeJS.ReadableStream): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  for await (const chunk of stream as AsyncIterable<string | Uint8Array>) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    if (!decoder) {
      const utf16 = chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : chunk[0] === 0xfe && chunk[1] === 0xff ? 'utf-16be' : 'utf-8';
      decoder = new TextDecoder(utf16);
    }
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  if (decoder) {
    const rest = decoder.decode();
    if (rest) yield rest;
  }
}

/** Reads decoded text until the first record is complete, so the delimiter can be detected before parsing. */
async function peekHeader(stream: NodeJS.ReadableStream): Promise<{ head: string; rest: AsyncGenerator<string> }> {
  const texts = decodeStream(stream);
  let head = '';
  for (;;) {
    const next = await texts.next();
    if (next.done) break;
    head += next.value;
    if (firstRecord(head).length < head.length || head.length > 1024 * 1024) break;
  }
  return { head, rest: texts };
}

/** A CSV whose header has been read; `stream` delivers the data rows (once). */
export interface OpenedCsv {
  header: CsvHeader;
  /** Streams the data rows in batches; rejects on a malformed file or when a handler throws. */
  stream(onRows: CsvRowHandlers['onRows']): Promise<{ rowCount: number }>;
}

/**
 * Opens a CSV: decodes it (or peeks at the start of a stream), detects the delimiter from the
 * header line and reads the header, so both files' columns are known before any row is parsed.
 */
export async function openCsv(source: CsvSource): Promise<OpenedCsv> {
  const fileName = source.name;
  let input: () => Readable;
  let headText: string;
  if (typeof source.data === 'string' || source.data instanceof Uint8Array) {
    const decoded = typeof source.data === 'string' ? source.data : decodeText(source.data);
    const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    headText = text.slice(0, 1024 * 1024);
    input = () => Readable.from(pieces([text]));
  } else {
    const { head, rest } = await peekHeader(source.data);
    headText = head.replace(/^\ufeff/, '');
    input = () =>
      Readable.from(
        asyncPieces(
          (async function* () {
            yield headText;
            yield* rest;
          })(),
        ),
      );
  }
  const firstLine = headText.replace(/^(?:[ \t]*\r?\n)+/, '');
  if (firstLine.trim() === '') throw new CsvFormatError(`The file "${fileName}" is empty: it has no header row.`, fileName, 1);
  const delimiter = detectDelimiter(firstRecord(firstLine));
  const parsedHeader = Papa.parse<string[]>(firstRecord(firstLine), { delimiter });
  const header: CsvHeader = { fileName, headers: cleanHeaders(parsedHeader.data[0] ?? []), delimiter, decimalComma: delimiter === ';' };
  let used = false;
  return {
    header,
    stream(onRows) {
      if (used) throw new Error(`The file "${fileName}" has already been read.`);
      used = true;
      return parseRows(input(), header, onRows, source.maxRows);
    },
  };
}

function parseRows(input: Readable, header: CsvHeader, onRows: CsvRowHandlers['onRows'], maxRows = Infinity): Promise<{ rowCount: number }> {
  const { fileName, delimiter } = header;
  let headerSeen = false;
  let rowCount = 0;
  let recordIndex = 0; // records seen so far, blank lines and header included
  let failure: unknown;
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(input as unknown as string, {
      delimiter,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        try {
          const rows = results.data;
          if (results.errors.length) {
            const error = results.errors[0];
            throw describePapaError(fileName, error, recordIndex + (error.row ?? 0) + 1);
          }
          let start = 0;
          if (!headerSeen) {
            while (start < rows.length && isBlank(rows[start])) start++;
            recordIndex += start;
            if (start === rows.length) return;
            headerSeen = true;
            start++;
            recordIndex++;
          }
          const batch: string[][] = [];
          const numbers: number[] = [];
          for (let i = start; i < rows.length; i++) {
            recordIndex++;
            const row = rows[i];
            if (row.length === 1 && isBlank(row)) continue;
            batch.push(row);
            numbers.push(recordIndex);
          }
          if (!batch.length) return;
          rowCount += batch.length;
          if (rowCount > maxRows) {
            throw new CsvFormatError(
              `The file "${fileName}" has more than ${maxRows.toLocaleString('en-GB')} rows, the most one comparison may read. Split it and compare the parts.`,
              fileName,
            );
          }
          onRows(batch, numbers);
        } catch (error) {
          failure = error;
          parser.abort();
          input.destroy();
        }
      },
      complete() {
        if (failure) reject(failure);
        else resolve({ rowCount });
      },
      error(error: Error) {
        input.destroy();
        reject(new CsvFormatError(`The file "${fileName}" could not be read: ${error.message}`, fileName));
      },
    });
  });
}

/**
 * Streams a CSV: detects the delimiter from the header line, calls `onHeader` once and then
 * `onRows` with batches of raw cell arrays. Blank lines are skipped (row numbers still count
 * them). Any exception thrown by a handler stops the parse and rejects the promise; a malformed
 * file rejects with a CsvFormatError naming the file and row. Resolves with the header and the
 * number of data rows.
 */
export async function streamCsv(source: CsvSource, handlers: CsvRowHandlers): Promise<CsvHeader & { rowCount: number }> {
  const opened = await openCsv(source);
  handlers.onHeader?.(opened.header);
  const { rowCount } = await opened.stream(handlers.onRows);
  return { ...opened.header, rowCount };
}

/** Reads a whole CSV into memory (header, rows, row numbers). For small files and tests; big ones should stream. */
export async function readCsv(source: CsvSource): Promise<CsvTable> {
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const header = await streamCsv(source, {
    onRows(batch, numbers) {
      for (let i = 0; i < batch.length; i++) {
        rows.push(batch[i]);
        rowNumbers.push(numbers[i]);
      }
    },
  });
  return { fileName: header.fileName, headers: header.headers, delimiter: header.delimiter, decimalComma: header.decimalComma, rows, rowNumbers };
}

/**
 * Reads the amount in one cell and names the file, row and column when it is not a number —
 * the error a user sees for "abc" in a Unit Price column.
 */
export function readAmountCell(text: string | undefined, decimalComma: boolean, fileName: string, row: number, column: string): number | null {
  if (text === undefined) return null;
  const value = parseAmount(text, decimalComma);
  if (value !== null && Number.isNaN(value)) {
    throw new CsvFormatError(
      `The file "${fileName}", row ${row}, column "${column}": "${text.length > 40 ? `${text.slice(0, 40)}…` : text}" is not a number.`,
      fileName,
      row,
      column,
    );
  }
  return value;
}
