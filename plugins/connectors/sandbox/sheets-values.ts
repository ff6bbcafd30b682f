import { columnName } from '../sheet-mapping';
import type { SandboxCellKind, SandboxSpreadsheet } from './sandbox-state';

export { columnName };

/**
 * The sandbox's Google Sheets values model, after the Sheets API v4 reference
 * (spreadsheets.values get / update / append): A1 ranges of the one sheet 'Sheet1', cells kept
 * as entered with their kind, RAW versus USER_ENTERED input, and append's table detection.
 */

export const SHEET_NAME = 'Sheet1';
/** A new sheet's grid: 26 columns (A..Z) and 1000 rows; writing beyond it grows the grid. */
const GRID = { columns: 26, rows: 1000 };

/** A Sheets API error: its HTTP status, Google's status word and message. */
export class SheetsError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }

  body() {
    return { error: { code: this.code, message: this.message, status: this.status } };
  }
}

/** A rectangle of the sheet, 1-based and inclusive; an open end is Infinity. */
export interface GridRange {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
}

/**
 * Parses an A1 range of the first sheet: "A1", "A1:C3", "1:1", "A:C", "A2:C", optionally
 * prefixed by "Sheet1!" (or the quoted name). Any other sheet name is Google's "Unable to parse range".
 */
export function parseA1(text: string): GridRange {
  const bad = () => new SheetsError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${text}`);
  let range = text.trim();
  const bang = range.lastIndexOf('!');
  if (bang >= 0) {
    const sheet = range
      .slice(0, bang)
      .replace(/^'(.*)'$/, '$1')
      .replace(/''/g, "'");
    if (sheet !== SHEET_NAME) throw bad();
    range = range.slice(bang + 1);
  }
  if (!range) return { r1: 1, c1: 1, r2: Infinity, c2: Infinity };
  const ref = /^([A-Za-z]{0,3})(\d*)$/;
  const [a, b] = range.split(':');
  const start = ref.exec(a);
  if (!start || (!start[1] && !start[2])) throw bad();
  const c1 = start[1] ? columnNumber(start[1]) : 1;
  const r1 = start[2] ? Number(start[2]) : 1;
  if (r1 < 1) throw bad();
  if (b === undefined) return start[1] && start[2] ? { r1, c1, r2: r1, c2: c1 } : { r1, c1, r2: start[2] ? r1 : Infinity, c2: start[1] ? c1 : Infinity };
  const end = ref.exec(b);
  if (!end || (!end[1] && !end[2])) throw bad();
  return { r1, c1, r2: end[2] ? Number(end[2]) : Infinity, c2: end[1] ? columnNumber(end[1]) : Infinity };
}

/** A range in A1 notation, open ends bounded by the sheet's grid. */
export function a1Of(r: GridRange, sheet: SandboxSpreadsheet): string {
  const width = Math.max(GRID.columns, ...sheet.rows.map((row) => row.length));
  const height = Math.max(GRID.rows, sheet.rows.length);
  return `${SHEET_NAME}!${columnName(r.c1)}${r.r1}:${columnName(Math.min(r.c2, width))}${Math.min(r.r2, height)}`;
}

type Scalar = string | number | boolean;

/**
 * One input value as a cell (ValueInputOption): RAW stores it as given (text stays text, even
 * "=SUM(1)"); USER_ENTERED parses it as if typed in the UI: a leading "=" makes a formula, a
 * leading apostrophe forces text, numbers and TRUE/FALSE become numbers and booleans.
 */
export function cellOf(value: unknown, option: 'RAW' | 'USER_ENTERED', where: string): { text: string; kind: SandboxCellKind } {
  if (value === null || value === undefined) return { text: '', kind: 's' };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new SheetsError(400, 'INVALID_ARGUMENT', `Invalid value at '${where}': not a finite number.`);
    return { text: String(value), kind: 'n' };
  }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', kind: 'b' };
  if (typeof value !== 'string')
    throw new SheetsError(
      400,
      'INVALID_ARGUMENT',
      `Invalid value at '${where}' (type.googleapis.com/google.protobuf.ListValue), ${JSON.stringify(value).slice(0, 80)}`,
    );
  if (option === 'RAW') return { text: value, kind: 's' };
  if (value.startsWith('=')) return { text: value, kind: 'f' };
  if (value.startsWith("'")) return { text: value.slice(1), kind: 's' };
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value.trim())) return { text: String(Number(value)), kind: 'n' };
  if (/^(true|false)$/i.test(value.trim())) return { text: value.trim().toUpperCase(), kind: 'b' };
  return { text: value, kind: 's' };
}

function kindsOf(sheet: SandboxSpreadsheet): SandboxCellKind[][] {
  sheet.kinds ??= sheet.rows.map((r) => r.map(() => 's' as const));
  return sheet.kinds;
}

/** Writes a block of input values with its top-left cell at (row, col), growing the sheet. */
export function writeBlock(sheet: SandboxSpreadsheet, row: number, col: number, values: unknown[][], option: 'RAW' | 'USER_ENTERED'): void {
  const kinds = kindsOf(sheet);
  values.forEach((vals, i) => {
    const r = row - 1 + i;
    while (sheet.rows.length <= r) sheet.rows.push([]);
    while (kinds.length <= r) kinds.push([]);
    vals.forEach((v, j) => {
      const c = col - 1 + j;
      const cell = cellOf(v, option, `data.values[${i}][${j}]`);
      while (sheet.rows[r].length < c) sheet.rows[r].push('');
      while (kinds[r].length < c) kinds[r].push('s');
      sheet.rows[r][c] = cell.text;
      kinds[r][c] = cell.kind;
    });
  });
}

/**
 * values.get: the cells of a range, trailing empty cells and rows left out (as Sheets does).
 * FORMATTED_VALUE (the default) gives text; UNFORMATTED_VALUE and FORMULA give numbers and
 * booleans as JSON values; the sandbox evaluates no formula, so a formula cell reads as its text.
 */
export function readRange(sheet: SandboxSpreadsheet, range: GridRange, render = 'FORMATTED_VALUE'): Scalar[][] {
  const kinds = kindsOf(sheet);
  const out: Scalar[][] = [];
  for (let r = range.r1 - 1; r < Math.min(range.r2, sheet.rows.length); r++) {
    const row: Scalar[] = [];
    for (let c = range.c1 - 1; c < Math.min(range.c2, sheet.rows[r].length); c++) {
      const text = sheet.rows[r][c] ?? '';
      const kind = kinds[r]?.[c] ?? 's';
      row.push(render === 'FORMATTED_VALUE' || kind === 's' || kind === 'f' ? text : kind === 'n' ? Number(text) : text === 'TRUE');
    }
    while (row.length && row[row.length - 1] === '') row.pop();
    out.push(row);
  }
  while (out.length && !out[out.length - 1].length) out.pop();
  return out;
}

/** The ValueRange of a request body as rows (majorDimension COLUMNS is turned into rows). */
export function rowsOfBody(body: unknown): unknown[][] {
  const b = (body ?? {}) as { values?: unknown; majorDimension?: string };
  if (!Array.isArray(b.values) || !b.values.every(Array.isArray))
    throw new SheetsError(400, 'INVALID_ARGUMENT', "Invalid JSON payload: 'values' must be a list of lists.");
  const values = b.values as unknown[][];
  if (b.majorDimension !== 'COLUMNS') return values;
  const height = Math.max(0, ...values.map((c) => c.length));
  return Array.from({ length: height }, (_, i) => values.map((c) => c[i] ?? null));
}

export function inputOption(query: { valueInputOption?: string }): 'RAW' | 'USER_ENTERED' {
  const v = query.valueInputOption;
  if (v === 'RAW' || v === 'USER_ENTERED') return v;
  if (v === undefined) throw new SheetsError(400, 'INVALID_ARGUMENT', "'valueInputOption' is required but not specified");
  throw new SheetsError(400, 'INVALID_ARGUMENT', `Invalid value at 'value_input_option' ("${String(v).slice(0, 40)}")`);
}

/**
 * values.append: finds the table that starts at the range's top-left cell (the rows below it
 * that hold data in the range's columns, every column right of it for a one-cell range), writes the values on the rows after its last row from
 * its first column, and answers with the table's range before the append and the updated range.
 */
export function append(sheet: SandboxSpreadsheet, given: GridRange, values: unknown[][], option: 'RAW' | 'USER_ENTERED') {
  // a single cell ("A1") starts the search: the table is what extends right and down from it
  const range = given.r1 === given.r2 && given.c1 === given.c2 ? { ...given, r2: Infinity, c2: Infinity } : given;
  let last = 0;
  let right = range.c1;
  for (let r = range.r1 - 1; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r].slice(range.c1 - 1, range.c2 === Infinity ? undefined : range.c2);
    const used = cells.reduce((n, c, i) => (c !== '' ? i + 1 : n), 0);
    if (used) {
      last = r + 1;
      right = Math.max(right, range.c1 + used - 1);
    }
  }
  const start = last ? last + 1 : range.r1;
  writeBlock(sheet, start, range.c1, values, option);
  const width = Math.max(1, ...values.map((v) => v.length));
  const end = start + values.length - 1;
  return {
    spreadsheetId: sheet.spreadsheetId,
    ...(last ? { tableRange: `${SHEET_NAME}!${columnName(range.c1)}${range.r1}:${columnName(right)}${last}` } : {}),
    updates: {
      spreadsheetId: sheet.spreadsheetId,
      updatedRange: `${SHEET_NAME}!${columnName(range.c1)}${start}:${columnName(range.c1 + width - 1)}${end}`,
      updatedRows: values.length,
      updatedColumns: width,
      updatedCells: values.reduce((n, v) => n + v.length, 0),
    },
  };
}

/** values.update: writes the values with their top-left at the range's first cell. */
export function update(sheet: SandboxSpreadsheet, range: GridRange, values: unknown[][], option: 'RAW' | 'USER_ENTERED') {
  writeBlock(sheet, range.r1, range.c1, values, option);
  const width = Math.max(1, ...values.map((v) => v.length));
  return {
    spreadsheetId: sheet.spreadsheetId,
    updatedRange: `${SHEET_NAME}!${columnName(range.c1)}${range.r1}:${columnName(range.c1 + width - 1)}${range.r1 + Math.max(values.length, 1) - 1}`,
    updatedRows: values.length,
    updatedColumns: width,
    updatedCells: values.reduce((n, v) => n + v.length, 0),
  };
}
