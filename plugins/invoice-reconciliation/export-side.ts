/**
 * Downloads of one side of a comparison (default or custom config): one table as CSV (the
 * engine's formula-safe tableToCsv) or all four tables as an XLSX workbook (exceljs), with a
 * file name that says which side and table it is.
 */
import ExcelJS from 'exceljs';
import type { ComparisonSide } from './engine/compare';
import { discrepancyTable, emailTable, metadataTable, tableToCsv, unmatchedTable, type ExportTable } from './engine/export';

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

/** Turns one side of a comparison into a CSV of one table or an XLSX workbook of all four. */
export async function exportSide(
  side: ComparisonSide,
  sideName: 'default' | 'custom_config',
  format: ExportFormat,
  table?: ExportTableName,
): Promise<ExportFile> {
  const label = sideName === 'default' ? 'default' : 'custom-config';
  const tables = sideTables(side);
  if (format === 'csv') {
    const name = table ?? 'discrepancies';
    // a BOM so Excel opens the UTF-8 text with the right characters
    return {
      fileName: `reconciliation-${label}-${name}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: Buffer.from(`\ufeff${tableToCsv(tables[name])}`, 'utf8'),
    };
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Flowmatic';
  workbook.created = new Date();
  for (const t of Object.values(tables)) {
    const sheet = workbook.addWorksheet(t.name.slice(0, 31));
    sheet.columns = t.columns.map((title) => ({ header: title, key: title, width: Math.min(60, Math.max(12, title.length + 2)) }));
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    for (const row of t.rows) sheet.addRow(row);
  }
  return {
    fileName: `reconciliation-${label}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}
