import type ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { runBounded, ParseBudgetError, type WorkerBudget } from '../files/bounded-worker';
import { decodeText, detectDelimiter } from './csv-reader';
import { checkZipBudget, XLSX_BUDGET, ZipBudgetError } from './zip-budget';

/**
 * A CSV or an XLSX workbook read into grids of cells (one per sheet), in bounded memory and time
 * and off the request thread: the work runs in a worker (runBounded) with a heap limit and a
 * time-out, a workbook's entries are counted against XLSX_BUDGET before anything inflates them,
 * and a row and cell budget stops the reading as soon as it is passed. A refusal is a
 * GridBudgetError the caller turns into a sentence about its kind of file.
 */
export type GridCell = string | number | null;
export type Grid = GridCell[][];

export interface GridBudget {
  maxRows: number;
  maxCells: number;
}

export class GridBudgetError extends Error {
  constructor(
    readonly reason: 'rows' | 'cells' | 'expanded' | 'memory' | 'time' | 'damaged',
    readonly detail?: string,
  ) {
    super(`The file is over its budget (${reason}).`);
    this.name = 'GridBudgetError';
  }

  /** The expanded-size limit, in MB, for messages. */
  get limitMb(): number {
    return XLSX_BUDGET.maxExpandedBytes / (1024 * 1024);
  }
}

function cellValue(value: ExcelJS.CellValue): GridCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.getUTCFullYear().toString();
  if (typeof value === 'object') {
    if ('result' in value) return cellValue((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return String((value as { text: unknown }).text);
    if ('error' in value) return null;
  }
  return String(value);
}

function counter(budget: GridBudget) {
  let rows = 0;
  let cells = 0;
  return (addRows: number, addCells: number) => {
    rows += addRows;
    cells += addCells;
    if (rows > budget.maxRows) throw new GridBudgetError('rows');
    if (cells > budget.maxCells) throw new GridBudgetError('cells');
  };
}

async function workbookGrids(data: Uint8Array, budget: GridBudget): Promise<{ sheet: string; grid: Grid }[]> {
  try {
    checkZipBudget(data, XLSX_BUDGET);
  } catch (error) {
    if (error instanceof ZipBudgetError)
      throw new GridBudgetError(error.reason === 'damaged' ? 'damaged' : 'expanded', error.reason === 'damaged' ? 'the file is damaged' : undefined);
    throw error;
  }
  // exceljs takes about 2 s to load: only a workbook's worker pays for it
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer);
  } catch (error) {
    throw new GridBudgetError('damaged', (error as Error).message);
  }
  const count = counter(budget);
  return workbook.worksheets.map((sheet) => {
    count(sheet.rowCount, sheet.rowCount * sheet.columnCount);
    const grid: Grid = [];
    sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const cells: GridCell[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => (cells[col - 1] = cellValue(cell.value)));
      grid[rowNumber - 1] = Array.from(cells, (c) => c ?? null);
    });
    return { sheet: sheet.name, grid: Array.from(grid, (r) => r ?? []) };
  });
}

function csvGrid(data: Uint8Array, budget: GridBudget): Grid {
  const text = decodeText(data).replace(/^\ufeff/, '');
  const firstLine = text.split(/\r?\n/, 50).find((l) => l.trim()) ?? '';
  const count = counter(budget);
  const grid: Grid = [];
  Papa.parse<string[]>(text, {
    delimiter: detectDelimiter(firstLine),
    skipEmptyLines: 'greedy',
    step: (row) => {
      count(1, row.data.length);
      grid.push(row.data);
    },
  });
  return grid;
}

/** The worker's side. */
export async function readGridsTask(input: { kind: 'csv' | 'xlsx'; data: Uint8Array; budget: GridBudget }): Promise<{ sheet: string; grid: Grid }[]> {
  return input.kind === 'xlsx' ? workbookGrids(input.data, input.budget) : [{ sheet: '', grid: csvGrid(input.data, input.budget) }];
}

/** Reads a CSV or XLSX into grids in a bounded worker; GridBudgetError when over budget. */
export async function readGridsBounded(
  kind: 'csv' | 'xlsx',
  data: Uint8Array,
  budget: GridBudget,
  worker?: Partial<WorkerBudget>,
): Promise<{ sheet: string; grid: Grid }[]> {
  try {
    return await runBounded(
      __filename,
      'readGridsTask',
      { kind, data, budget },
      {
        budget: worker,
        rethrow: (f) => (f.name === 'GridBudgetError' ? new GridBudgetError(f.reason as GridBudgetError['reason'], f.detail) : undefined),
      },
    );
  } catch (error) {
    if (error instanceof ParseBudgetError) throw new GridBudgetError(error.reason);
    throw error;
  }
}
