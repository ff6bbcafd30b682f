/**
 * Reads a financial statement — CSV, XLSX (every sheet), or the text lines of a PDF — into line
 * items by period. It finds the label column and the period columns itself, recognises line
 * items by label synonyms ("Turnover", "Cost of goods sold", "Net cash from operating
 * activities"...), handles statements laid out either way round (periods across or down), and
 * lists everything it could not read instead of guessing.
 */
import { normaliseHeader, parseAmount, readGridsBounded, GridBudgetError, type Grid } from '../../../src/server';

export type LineItemId =
  | 'revenue'
  | 'costOfSales'
  | 'grossProfit'
  | 'operatingExpenses'
  | 'operatingIncome'
  | 'interestExpense'
  | 'netIncome'
  | 'currentAssets'
  | 'currentLiabilities'
  | 'totalAssets'
  | 'totalLiabilities'
  | 'cash'
  | 'inventory'
  | 'receivables'
  | 'totalDebt'
  | 'equity'
  | 'operatingCashFlow';

/** Label synonyms per line item, normalised (lower case, punctuation as spaces). */
export const LINE_ITEM_SYNONYMS: Record<LineItemId, string[]> = {
  revenue: [
    'revenue',
    'revenues',
    'total revenue',
    'total revenues',
    'net revenue',
    'net revenues',
    'sales',
    'net sales',
    'total sales',
    'turnover',
    'sales revenue',
    'income from sales',
    'operating revenue',
  ],
  costOfSales: [
    'cost of sales',
    'cost of goods sold',
    'cogs',
    'cost of revenue',
    'cost of revenues',
    'direct costs',
    'cost of goods',
    'costs of sales',
    'cost of sales and services',
  ],
  grossProfit: ['gross profit', 'gross margin', 'gross income'],
  operatingExpenses: [
    'operating expenses',
    'total operating expenses',
    'opex',
    'overheads',
    'sg a',
    'selling general and administrative',
    'selling general and administrative expenses',
    'administrative expenses',
    'operating costs',
  ],
  operatingIncome: [
    'operating income',
    'operating profit',
    'ebit',
    'profit from operations',
    'income from operations',
    'operating profit loss',
    'operating result',
  ],
  interestExpense: [
    'interest expense',
    'interest expenses',
    'finance costs',
    'finance cost',
    'interest paid',
    'interest',
    'net interest expense',
    'interest charges',
  ],
  netIncome: [
    'net income',
    'net profit',
    'profit for the year',
    'profit for the period',
    'net earnings',
    'profit after tax',
    'net profit after tax',
    'net income loss',
    'net profit loss',
    'profit loss for the year',
  ],
  currentAssets: ['total current assets', 'current assets'],
  currentLiabilities: ['total current liabilities', 'current liabilities'],
  totalAssets: ['total assets'],
  totalLiabilities: ['total liabilities'],
  cash: ['cash', 'cash and cash equivalents', 'cash equivalents', 'cash at bank', 'cash and bank', 'cash at bank and in hand', 'cash and equivalents'],
  inventory: ['inventory', 'inventories', 'stock', 'stocks', 'merchandise inventory'],
  receivables: ['accounts receivable', 'trade receivables', 'receivables', 'debtors', 'trade debtors', 'trade and other receivables', 'net receivables'],
  totalDebt: ['total debt', 'borrowings', 'total borrowings', 'loans and borrowings', 'debt', 'bank loans', 'loans', 'interest bearing debt', 'notes payable'],
  equity: [
    'total equity',
    'equity',
    'shareholders equity',
    'stockholders equity',
    'total shareholders equity',
    'total stockholders equity',
    'net assets',
    'owners equity',
    'total owners equity',
  ],
  operatingCashFlow: [
    'net cash from operating activities',
    'cash flow from operations',
    'cash flows from operating activities',
    'operating cash flow',
    'net cash provided by operating activities',
    'cash generated from operations',
    'net cash generated from operating activities',
    'net cash flow from operating activities',
    'net cash inflow from operating activities',
  ],
};

/** Debt components summed when no total-debt line is given. */
const DEBT_PARTS = [
  'long term debt',
  'long term borrowings',
  'short term debt',
  'short term borrowings',
  'current portion of long term debt',
  'non current borrowings',
  'current borrowings',
  'bank overdraft',
  'bank overdrafts',
];

/** Items written as costs: kept positive whatever sign convention the statement uses. */
const COST_ITEMS: LineItemId[] = ['costOfSales', 'operatingExpenses', 'interestExpense'];

/** Readable names of the line items, for messages and reports. */
export const LINE_ITEM_NAMES: Record<LineItemId, string> = {
  revenue: 'Revenue',
  costOfSales: 'Cost of sales',
  grossProfit: 'Gross profit',
  operatingExpenses: 'Operating expenses',
  operatingIncome: 'Operating income',
  interestExpense: 'Interest expense',
  netIncome: 'Net income',
  currentAssets: 'Current assets',
  currentLiabilities: 'Current liabilities',
  totalAssets: 'Total assets',
  totalLiabilities: 'Total liabilities',
  cash: 'Cash',
  inventory: 'Inventory',
  receivables: 'Receivables',
  totalDebt: 'Debt',
  equity: 'Equity',
  operatingCashFlow: 'Operating cash flow',
};

/** A statement read by period: values[i] belongs to periods[i], periods oldest first when they carry years. */
export interface Statement {
  fileName: string;
  periods: string[];
  items: Partial<Record<LineItemId, { label: string; values: (number | null)[]; derived?: string }>>;
  /** Labels with numbers that matched no line item (kept for the report). */
  otherLabels: string[];
  /** What could not be read, in sentences. */
  unreadable: string[];
}

/** The file is not a statement that can be read at all; the message says why. */
export class StatementReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatementReadError';
  }
}

export type StatementSource =
  | { name: string; kind: 'csv'; data: string | Uint8Array }
  | { name: string; kind: 'xlsx'; data: Uint8Array }
  | { name: string; kind: 'pdf-text'; lines: string[] };

type Cell = string | number | null;

/** A statement is a page or two of figures: more rows or cells than this is not one. */
export const MAX_STATEMENT_ROWS = 5_000;
export const MAX_STATEMENT_CELLS = 200_000;

/** Rows and cells within the statement budget, or a StatementReadError naming the file. */
function checkBudget(name: string, rows: number, cells: number): void {
  const over =
    rows > MAX_STATEMENT_ROWS
      ? `${MAX_STATEMENT_ROWS.toLocaleString('en-GB')} rows`
      : cells > MAX_STATEMENT_CELLS
        ? `${MAX_STATEMENT_CELLS.toLocaleString('en-GB')} cells`
        : undefined;
  if (over) throw new StatementReadError(`"${name}" has more than ${over}, more than a statement may have.`);
}

function checkGridBudget(name: string, grid: Grid): void {
  checkBudget(
    name,
    grid.length,
    grid.reduce((n, row) => n + row.length, 0),
  );
}

/** The statement's grids, read in a bounded worker: a CSV as one grid, a workbook's every sheet. */
export async function statementGrids(name: string, kind: 'csv' | 'xlsx', data: Uint8Array): Promise<{ sheet: string; grid: Grid }[]> {
  try {
    return await readGridsBounded(kind, data, { maxRows: MAX_STATEMENT_ROWS, maxCells: MAX_STATEMENT_CELLS });
  } catch (error) {
    if (!(error instanceof GridBudgetError)) throw error;
    const what = kind === 'xlsx' ? 'spreadsheet' : 'file';
    throw new StatementReadError(
      error.reason === 'rows' || error.reason === 'cells'
        ? `"${name}" has more than ${(error.reason === 'rows' ? MAX_STATEMENT_ROWS : MAX_STATEMENT_CELLS).toLocaleString('en-GB')} ${error.reason}, more than a statement may have.`
        : error.reason === 'expanded'
          ? `This ${what} expands to more than ${error.limitMb} MB when opened, more than a statement may be.`
          : error.reason === 'memory'
            ? `"${name}" needs more memory to open than a statement may use.`
            : error.reason === 'time'
              ? `"${name}" takes longer to read than a statement may take.`
              : `"${name}" could not be opened as ${kind === 'xlsx' ? 'an Excel workbook' : 'a CSV file'}${error.detail ? ` (${error.detail})` : ''}.`,
    );
  }
}

function matchItem(label: string): { id: LineItemId; exact: boolean } | undefined {
  const name = normaliseHeader(label).replace(/^(?:less|add|total net)\s+/, (m) => (m.startsWith('total') ? 'total ' : ''));
  if (!name || /%/.test(label)) return undefined;
  for (const [id, synonyms] of Object.entries(LINE_ITEM_SYNONYMS) as [LineItemId, string[]][]) if (synonyms.includes(name)) return { id, exact: true };
  // Fuzzy: the longest synonym the label starts with ("Revenue from contracts with customers").
  // Ratios, percentages and per-share figures are not amounts.
  if (/%|\bratio\b|per share|\bmargin %|\bdays\b/i.test(label)) return undefined;
  let best: { id: LineItemId; length: number } | undefined;
  for (const [id, synonyms] of Object.entries(LINE_ITEM_SYNONYMS) as [LineItemId, string[]][]) {
    for (const s of synonyms) {
      if (s.length < 4 || !`${name} `.startsWith(`${s} `) || (best && s.length <= best.length)) continue;
      const rest = name.slice(s.length);
      // "Cash flows from investing activities" is not cash; "Interest income" is not an expense.
      if (/\b(flows?|activities|income|received|growth|change|movement|increase|decrease)\b/.test(rest) && !/\b(flows?|activities|income)\b/.test(s)) continue;
      best = { id, length: s.length };
    }
  }
  return best ? { id: best.id, exact: false } : undefined;
}

function cellNumber(cell: Cell): number | null | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  if (cell === null || cell.trim() === '') return null;
  const value = parseAmount(cell.replace(/%$/, ''));
  return value === null ? null : Number.isNaN(value) ? undefined : value;
}

function isYearLike(cell: Cell): boolean {
  const text = String(cell ?? '').trim();
  return (
    /(?:^|\D)(19|20)\d{2}(?:\D|$)/.test(text) ||
    /^(?:fy|q[1-4]|h[12]|period|year|month|current|prior|previous)\b/i.test(text) ||
    /^[A-Z][a-z]{2,8}[-\s]\d{2,4}$/.test(text)
  );
}

interface PartialStatement {
  periods: string[];
  rows: { label: string; values: (number | null)[] }[];
  problems: string[];
  /** Labels of rows that carry a number anywhere (for the "nothing recognised" message). */
  seenLabels: string[];
}

/** Reads one grid with labels down the side and periods across. */
function readGrid(grid: Grid, sheet: string): PartialStatement {
  const problems: string[] = [];
  // Label column: the column with the most text cells.
  const width = Math.max(0, ...grid.map((r) => r.length));
  const textCount = new Array(width).fill(0);
  for (const row of grid) row.forEach((c, i) => typeof c === 'string' && c.trim() && cellNumber(c) === undefined && textCount[i]++);
  const labelCol = textCount.indexOf(Math.max(...textCount, 0));
  // Period columns: right of the label, carrying numbers in rows whose label is a line item.
  const numericCount = new Array(width).fill(0);
  let recognisedRows = 0;
  for (const row of grid) {
    const label = row[labelCol];
    if (typeof label !== 'string' || !matchItem(label)) continue;
    recognisedRows++;
    for (let i = labelCol + 1; i < row.length; i++) if (typeof cellNumber(row[i]) === 'number') numericCount[i]++;
  }
  const periodCols = numericCount.map((n, i) => (n > 0 && n >= recognisedRows * 0.3 ? i : -1)).filter((i) => i >= 0);
  // A column whose values are all small integers next to the label is a "Note" column, not a period.
  if (periodCols.length > 1) {
    const first = periodCols[0];
    const header = grid.find((r) => typeof r[first] === 'string' && /^notes?$/i.test(String(r[first]).trim()));
    if (header) periodCols.shift();
  }
  // Period names: the last row above the first recognised row with text or years in the period columns.
  const firstDataRow = grid.findIndex(
    (r) => typeof r[labelCol] === 'string' && matchItem(String(r[labelCol])) && periodCols.some((c) => typeof cellNumber(r[c]) === 'number'),
  );
  let names: string[] = periodCols.map((_, i) => `Period ${i + 1}`);
  for (let r = firstDataRow - 1; r >= 0; r--) {
    const cells = periodCols.map((c) => grid[r][c]);
    if (cells.every((c) => c === null || String(c).trim() === '')) continue;
    if (cells.some(isYearLike) || cells.every((c) => typeof c === 'string' && cellNumber(c) === undefined)) {
      names = cells.map((c, i) => (c === null || String(c).trim() === '' ? `Period ${i + 1}` : String(c).trim()));
      break;
    }
  }
  const rows: PartialStatement['rows'] = [];
  for (let r = Math.max(0, firstDataRow); r < grid.length; r++) {
    const row = grid[r];
    const label = row[labelCol];
    if (typeof label !== 'string' || !label.trim()) continue;
    const values = periodCols.map((c) => {
      const v = cellNumber(row[c] ?? null);
      if (v === undefined) {
        problems.push(`${sheet}"${label.trim()}" for ${names[periodCols.indexOf(c)]}: "${String(row[c]).trim()}" is not a number.`);
        return null;
      }
      return v;
    });
    if (values.some((v) => v !== null)) rows.push({ label: label.trim(), values });
  }
  const seenLabels = grid
    .filter(
      (row) => typeof row[labelCol] === 'string' && String(row[labelCol]).trim() && row.some((c, i) => i !== labelCol && typeof cellNumber(c) === 'number'),
    )
    .map((row) => String(row[labelCol]).trim());
  return { periods: names, rows, problems, seenLabels };
}

function transpose(grid: Grid): Grid {
  const width = Math.max(0, ...grid.map((r) => r.length));
  return Array.from({ length: width }, (_, c) => grid.map((r) => r[c] ?? null));
}

function recognisedCount(p: PartialStatement): number {
  return new Set(p.rows.map((r) => matchItem(r.label)?.id).filter(Boolean)).size;
}

/** Reads a grid either way round and keeps the reading that recognises more line items. */
function readEitherWay(grid: Grid, sheet: string): PartialStatement {
  const across = readGrid(grid, sheet);
  const down = readGrid(transpose(grid), sheet);
  return recognisedCount(down) > recognisedCount(across) ? down : across;
}

/** PDF text lines → a grid: the label, then the amounts at the end of the line, right-aligned. */
export function linesToGrid(lines: string[]): Grid {
  const amount = /^(?:\(?-?[$€£¥]?\s?\d[\d,.' ]*\)?%?|[-–—])$/;
  const parsed = lines.map((line) => {
    const tokens = line
      .trim()
      .split(/\s{2,}|\t|(?<=\S)\s(?=[($€£¥-]?\d|[-–—](?:\s|$))/)
      .filter(Boolean);
    const values: string[] = [];
    while (tokens.length && amount.test(tokens[tokens.length - 1].trim())) values.unshift(tokens.pop()!.trim());
    // A year header line ("2024 2023") is all "amounts": keep it as the period row.
    return { label: tokens.join(' ').trim(), values };
  });
  const width = Math.max(0, ...parsed.map((p) => p.values.length));
  return parsed.map(({ label, values }) => {
    const row: Cell[] = new Array(width + 1).fill(null);
    row[0] = label || null;
    values.forEach((v, i) => (row[width - values.length + 1 + i] = v));
    return row;
  });
}

function chronological(periods: string[]): number[] {
  const years = periods.map((p) => /(?:19|20)\d{2}/.exec(p)?.[0]);
  const order = periods.map((_, i) => i);
  if (years.every(Boolean)) order.sort((a, b) => Number(years[a]) - Number(years[b]) || b - a);
  return order;
}

/**
 * Reads a statement from a CSV, an XLSX workbook or a PDF's text lines. Throws a
 * StatementReadError when nothing recognisable is found (the message lists what was seen);
 * otherwise returns the line items by period, with `unreadable` naming what could not be read.
 */
export async function readStatement(source: StatementSource): Promise<Statement> {
  let grids: { sheet: string; grid: Grid }[];
  if (source.kind === 'csv' || source.kind === 'xlsx') {
    const data = typeof source.data === 'string' ? Buffer.from(source.data) : source.data;
    grids = (await statementGrids(source.name, source.kind, data)).map((g, _, all) => ({ sheet: all.length > 1 ? `Sheet "${g.sheet}": ` : '', grid: g.grid }));
  } else {
    if (!source.lines.some((l) => l.trim()))
      throw new StatementReadError(`"${source.name}" has no text layer (it is probably a scanned image), so no figures could be read.`);
    grids = [{ sheet: '', grid: linesToGrid(source.lines) }];
    checkGridBudget(source.name, grids[0].grid);
  }

  // Read each grid and merge by period name.
  const periods: string[] = [];
  const collected = new Map<LineItemId, { label: string; exact: boolean; values: Map<string, number | null> }>();
  const debtParts = new Map<string, Map<string, number | null>>();
  const otherLabels: string[] = [];
  const seenLabels: string[] = [];
  const unreadable: string[] = [];
  // The same period can be named differently on two sheets ("2024", "31 Dec 2024"): a single year identifies it.
  const periodKey = (name: string) => {
    const years = name.match(/(?:19|20)\d{2}/g);
    return years && years.length === 1 ? years[0] : name;
  };
  const periodNames = new Map<string, string>();
  for (const { sheet, grid } of grids) {
    if (!grid.length) continue;
    const partial = readEitherWay(grid, sheet);
    unreadable.push(...partial.problems);
    seenLabels.push(...partial.seenLabels);
    for (const p of partial.periods) {
      const key = periodKey(p);
      if (!periodNames.has(key)) {
        periodNames.set(key, p);
        periods.push(key);
      }
    }
    for (const row of partial.rows) {
      const match = matchItem(row.label);
      const byPeriod = new Map(partial.periods.map((p, i) => [periodKey(p), row.values[i]] as const));
      const normalised = normaliseHeader(row.label);
      if (DEBT_PARTS.includes(normalised)) {
        debtParts.set(normalised, byPeriod);
        continue;
      }
      if (!match) {
        otherLabels.push(row.label);
        continue;
      }
      const existing = collected.get(match.id);
      // An exact label beats a partial one; otherwise the first occurrence wins (totals usually come last, so prefer "total ..." exact names).
      if (!existing || (match.exact && !existing.exact)) collected.set(match.id, { label: row.label, exact: match.exact, values: byPeriod });
    }
  }
  if (!collected.size) {
    const seen = [...new Set([...otherLabels, ...seenLabels])].slice(0, 12).join(', ');
    throw new StatementReadError(
      `No financial line items were recognised in "${source.name}"${seen ? `; the labels found were: ${seen}` : ' (no rows with labels and numbers were found)'}. Expected labels such as Revenue, Cost of sales, Net income, Current assets, Total equity.`,
    );
  }

  const order = chronological(periods);
  const orderedKeys = order.map((i) => periods[i]);
  const orderedPeriods = orderedKeys.map((k) => periodNames.get(k)!);
  const items: Statement['items'] = {};
  for (const [id, entry] of collected) {
    let values = orderedKeys.map((p) => entry.values.get(p) ?? null);
    if (COST_ITEMS.includes(id)) values = values.map((v) => (v === null ? null : Math.abs(v)));
    items[id] = { label: entry.label, values };
  }
  if (!items.totalDebt && debtParts.size) {
    const values = orderedKeys.map((p) => {
      const parts = [...debtParts.values()].map((m) => m.get(p)).filter((v): v is number => typeof v === 'number');
      return parts.length ? parts.reduce((a, b) => a + Math.abs(b), 0) : null;
    });
    items.totalDebt = { label: [...debtParts.keys()].join(' + '), values, derived: 'sum of the debt lines' };
  }
  deriveMissing(items, orderedPeriods.length);
  for (const id of ['revenue', 'netIncome', 'currentAssets', 'currentLiabilities', 'equity'] as LineItemId[]) {
    if (!items[id])
      unreadable.push(
        `No ${LINE_ITEM_NAMES[id].toLowerCase()} line was found (looked for labels such as ${LINE_ITEM_SYNONYMS[id]
          .slice(0, 3)
          .map((s) => `"${s}"`)
          .join(', ')}).`,
      );
  }
  return { fileName: source.name, periods: orderedPeriods, items, otherLabels, unreadable };
}

/** Fills gross profit / cost of sales / operating income from the others when the statement omits one. */
function deriveMissing(items: Statement['items'], n: number): void {
  const get = (id: LineItemId, i: number) => items[id]?.values[i] ?? null;
  const derive = (id: LineItemId, how: string, f: (i: number) => number | null) => {
    if (items[id]) return;
    const values = Array.from({ length: n }, (_, i) => f(i));
    if (values.some((v) => v !== null)) items[id] = { label: LINE_ITEM_NAMES[id], values, derived: how };
  };
  const both = (a: number | null, b: number | null, f: (a: number, b: number) => number) => (a === null || b === null ? null : f(a, b));
  derive('grossProfit', 'revenue − cost of sales', (i) => both(get('revenue', i), get('costOfSales', i), (a, b) => a - b));
  derive('costOfSales', 'revenue − gross profit', (i) => both(get('revenue', i), get('grossProfit', i), (a, b) => a - b));
  derive('operatingIncome', 'gross profit − operating expenses', (i) => both(get('grossProfit', i), get('operatingExpenses', i), (a, b) => a - b));
}
