/**
 * Turns an uploaded statement file into the engine's StatementSource: CSV and XLSX as they are,
 * a PDF through the shared document reader (its text layer; scanned pages go through OCR) into
 * text lines. A PDF that cannot be opened gives a StatementReadError naming the file.
 */
import { readDocument, type OcrEngine } from '../../src/server';
import { StatementReadError, type StatementSource } from './engine/statement-reader';

export type StatementKind = 'csv' | 'xlsx' | 'pdf';

/** The statement source of a file of a known kind. */
export async function statementSource(name: string, kind: StatementKind, bytes: Uint8Array, ocr: OcrEngine): Promise<StatementSource> {
  if (kind === 'csv') return { name, kind: 'csv', data: bytes };
  if (kind === 'xlsx') return { name, kind: 'xlsx', data: bytes };
  try {
    const document = await readDocument(bytes, 'pdf', { ocr, maxPages: 30 });
    return { name, kind: 'pdf-text', lines: document.pages.flatMap((page) => page.lines.map((line) => line.text)) };
  } catch (error) {
    if ((error as Error).name === 'DocumentReadError') throw new StatementReadError(`"${name}" could not be read as a PDF: ${(error as Error).message}`);
    throw error;
  }
}
