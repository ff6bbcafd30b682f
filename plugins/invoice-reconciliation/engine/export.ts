/**
 * Downloads of a reconciliation: each result table as CSV text (PapaParse's unparse) and the
 * whole comparison as one XLSX workbook (exceljs) with a summary, discrepancy, unmatched and
 * e-mail sheet per side. CSV cells are neutralised by OWASP's CSV-injection rule (see safeCell);
 * XLSX cells are written as typed values (text is a shared string, never a formula).
 */
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { ComparisonResult, ComparisonSide } from './compare';
import type { EmailDraft } from './emails';
import type { Discrepancy, ReconcileResult, UnmatchedRecord } from './matcher';

/** A table ready for export: column titles and rows of plain values. */
export interface ExportTable {
  name: string;
  columns: string[];
  rows: (string | number | null)[][];
}

type ResultLike = Pick<ReconcileResult, 'discrepencies' | 'unmatched_records' | 'metadata'>;

/** The discrepancies as a table, one row per difference. */
export function discrepancyTable(result: ResultLike): ExportTable {
  return {
    name: 'Discrepancies',
    columns: ['Kind', 'Key', 'Field', 'Vendor', 'Description', 'Invoice row', 'PO row', 'Invoice value', 'PO value', 'Expected value', 'Delta', 'Message'],
    rows: result.discrepencies.map((d: Discrepancy) => [
      d.kind,
      d.key,
      d.field,
      d.vendor,
      d.description,
      d.invoice_row,
      d.purchase_order_row,
      d.invoice_value,
      d.purchase_order_value,
      d.expected_value,
      d.delta,
      d.message,
    ]),
  };
}

/** The unmatched records as a table. */
export function unmatchedTable(result: ResultLike): ExportTable {
  return {
    name: 'Unmatched',
    columns: ['Side', 'Key', 'Row', 'Vendor', 'Description', 'Quantity', 'Unit price', 'Total', 'Reason'],
    rows: result.unmatched_records.map((u: UnmatchedRecord) => [
      u.side === 'invoice' ? 'invoice' : 'purchase order',
      u.key,
      u.row,
      u.vendor,
      u.description,
      u.quantity,
      u.unit_price,
      u.total,
      u.reason,
    ]),
  };
}

/** The metadata as a two-column table (nested values as JSON). */
export function metadataTable(result: ResultLike): ExportTable {
  return {
    name: 'Summary',
    columns: ['Measure', 'Value'],
    rows: Object.entries(result.metadata)
      .filter(([name]) => name !== 'vendors')
      .map(([name, value]) => [name, value === null || typeof value !== 'object' ? (value as string | number | null) : JSON.stringify(value)]),
  };
}

/** The drafted e-mails as a table. */
export function emailTable(emails: EmailDraft[]): ExportTable {
  return {
    name: 'E-mails',
    columns: ['Type', 'To', 'Vendor', 'Tone', 'Subject', 'Body'],
    rows: emails.map((e) => [e.type, e.to, e.vendor, e.tone, e.subject, e.body]),
  };
}

/** A text cell a spreadsheet would read as a formula or a command: its first character is one of = + - @ TAB CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A text cell that is exactly a number (e.g. "-12.50"): nothing after the sign can be a formula, so it stays usable as a number. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * OWASP's CSV-injection rule: a text cell starting with = + - @ TAB or CR gets a single quote in
 * front (and the field is quoted, see tableToCsv), so `-1+WEBSERVICE(...)` or `=HYPERLINK(...)`
 * opens as text. Our choice, documented in the README: numbers stay numbers — a numeric value
 * (a JS number, such as a delta of -12.5) and a text cell that is exactly a number ("-12.50",
 * "+3") are written as they are, since nothing in them can run; everything else that starts
 * with those characters is neutralised, "-1+1" included.
 */
export function safeCell(value: string | number | null): string | number {
  if (value === null) return '';
  if (typeof value === 'number') return value;
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** Whether a cell was neutralised (it is then quoted too, as OWASP asks). */
const neutralised = (value: unknown) => typeof value === 'string' && value.startsWith("'");

/** One table as CSV text (comma-delimited, CRLF, quoted where needed, formula-safe). */
export function tableToCsv(table: ExportTable): string {
  const data = table.rows.map((row) => row.map(safeCell));
  return Papa.unparse({ fields: table.columns.map((c) => String(safeCell(c))), data }, { newline: '\r\n', quotes: (value: unknown) => neutralised(value) });
}

/**
 * The same text as tableToCsv, a block of rows at a time: a download of 100,000 rows streams
 * from the server instead of being one string. The first chunk is the header row.
 */
export function* csvChunks(table: ExportTable, rowsPerChunk = 2000): Generator<string> {
  // PapaParse ends a header without rows with a line break, as tableToCsv does
  const header = Papa.unparse(
    { fields: table.columns.map((c) => String(safeCell(c))), data: [] },
    { newline: '\r\n', quotes: (value: unknown) => neutralised(value) },
  );
  yield table.rows.length ? header.replace(/\r\n$/, '') : header;
  for (let i = 0; i < table.rows.length; i += rowsPerChunk) {
    const data = table.rows.slice(i, i + rowsPerChunk).map((row) => row.map(safeCell));
    yield `\r\n${Papa.unparse(data, { newline: '\r\n', quotes: (value: unknown) => neutralised(value) })}`;
  }
}

function addSheet(workbook: ExcelJS.Workbook, name: string, table: ExportTable): void {
  const sheet = workbook.addWorksheet(name.slice(0, 31));
  sheet.columns = table.columns.map((title) => ({ header: title, key: title, width: Math.min(60, Math.max(12, title.length + 2)) }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of table.rows) sheet.addRow(row.map((v) => (v === null ? null : v)));
  if (table.rows.length) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: table.columns.length } };
}

/**
 * The comparison as an XLSX workbook: for each side (default, custom) a Summary, Discrepancies,
 * Unmatched and E-mails sheet. Values stay typed (numbers are numbers), so the sheet can be summed.
 */
export async function comparisonToXlsx(result: ComparisonResult): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Flowmatic';
  workbook.created = new Date();
  const sides: [string, ComparisonSide][] = [
    ['Default', result.default],
    ['Custom', result.custom_config],
  ];
  for (const [label, side] of sides) {
    addSheet(workbook, `${label} summary`, metadataTable(side));
    addSheet(workbook, `${label} discrepancies`, discrepancyTable(side));
    addSheet(workbook, `${label} unmatched`, unmatchedTable(side));
    addSheet(workbook, `${label} e-mails`, emailTable(side.emails));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
