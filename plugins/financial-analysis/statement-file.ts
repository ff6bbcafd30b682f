/**
 * Turns an uploaded statement file into a Statement, in bounded memory and time and off the
 * request thread: CSV and XLSX through the bounded grid reader (a worker with a heap limit and a
 * time-out; a workbook's entries counted against a budget before anything inflates them; a row
 * and cell budget), a PDF through the bounded PDF reader (its text layer; scanned pages go
 * through OCR) into text lines. A file over budget, or one that cannot be opened, gives a
 * StatementReadError naming the file.
 */
import { DocumentReadError, readPdfBounded, type OcrEngine } from '../../src/server';
import { readStatement, StatementReadError, type Statement, type StatementSource } from './engine/statement-reader';

export type StatementKind = 'csv' | 'xlsx' | 'pdf';

/** The PDF's text lines: text-layer pages as they are, scanned pages through OCR. */
async function pdfSource(name: string, bytes: Uint8Array, ocr: OcrEngine): Promise<StatementSource> {
  try {
    const read = await readPdfBounded(bytes, { maxPages: 30 });
    const lines: string[] = [];
    for (const p of read.pages) {
      const page = 'page' in p ? p.page : await ocr.recognize(Buffer.from(p.scanned.png), p.pageNumber);
      lines.push(...page.lines.map((line) => line.text));
    }
    return { name, kind: 'pdf-text', lines };
  } catch (error) {
    if (error instanceof DocumentReadError) throw new StatementReadError(`"${name}" could not be read as a PDF: ${error.message}`);
    throw error;
  }
}

/** Reads the statement in a file of a known kind. */
export async function readStatementFile(name: string, kind: StatementKind, bytes: Uint8Array, ocr: OcrEngine): Promise<Statement> {
  return readStatement(kind === 'pdf' ? await pdfSource(name, bytes, ocr) : { name, kind, data: bytes });
}
