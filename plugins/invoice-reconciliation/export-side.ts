/**
 * Downloads of one side of a comparison (default or custom config): one table as CSV (the
 * engine's formula-safe tableToCsv) or all four tables as an XLSX workbook (exceljs), with a
 * file name that says which side and table it is.
 */
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ComparisonSide } from './engine/compare';
import { csvChunks, discrepancyTable, emailTable, metadataTable, unmatchedTable, type ExportTable } from './engine/export';

export type ExportFormat = 'csv' | 'xlsx';
export type ExportTableName = 'metadata' | 'discrepancies' | 'unmatched' | 'emails';

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/** The four tables of a side, by name. */
export function sideTables(side: ComparisonSide): Record<ExportTableName, ExportTable> {
  return {
    metadata: metadataTable(side),
    discrepancies: discrepancyTable(side),
    unmatched: unmatchedTable(side),
    emails: emailTable(side.emails ?? []),
  };
}

/**
 * Turns one side of a comparison into a CSV of one table or an XLSX workbook of all four, in
 * memory: exportSideStream's bytes, collected (for the automation's stored workbook and the
 * browser's JSON export of a result it holds).
 */
export async function exportSide(
  side: ComparisonSide,
  sideName: 'default' | 'custom_config',
  format: ExportFormat,
  table?: ExportTableName,
): Promise<ExportFile> {
  const { fileName, contentType, stream } = exportSideStream(side, sideName, format, table);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer));
  return { fileName, contentType, body: Buffer.concat(chunks) };
}

/** A download being built: its name and type, and its bytes as a stream. */
export interface ExportStream {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/**
 * One side's download, written as a stream (issue 25: a result of 100,000 rows is
 * never one string or one buffer): the CSV a block of rows at a time, the workbook through
 * exceljs's streaming writer, row by row.
 */
export function exportSideStream(side: ComparisonSide, sideName: 'default' | 'custom_config', format: ExportFormat, table?: ExportTableName): ExportStream {
  const label = sideName === 'default' ? 'default' : 'custom-config';
  const tables = sideTables(side);
  if (format === 'csv') {
    const name = table ?? 'discrepancies';
    return {
      fileName: `reconciliation-${label}-${name}.csv`,
      contentType: 'text/csv; charset=utf-8',
      stream: Readable.from(
        (function* () {
          yield '\ufeff';
          yield* csvChunks(tables[name]);
        })(),
      ),
    };
  }
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  workbook.creator = 'Flowmatic';
  workbook.created = new Date();
  void (async () => {
    for (const t of Object.values(tables)) {
      const sheet = workbook.addWorksheet(t.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = t.columns.map((title) => ({ header: title, key: title, width: Math.min(60, Math.max(12, title.length + 2)) }));
      sheet.getRow(1).font = { bold: true };
      for (let i = 0; i < t.rows.length; i++) {
        sheet.addRow(t.rows[i]).commit();
        // let other requests run between blocks of rows
        if (i % 2000 === 1999) await new Promise((resolve) => setImmediate(resolve));
      }
      sheet.commit();
    }
    await workbook.commit();
  })().catch((error: Error) => out.destroy(error));
  return { fileName: `reconciliation-${label}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', stream: out };
}
