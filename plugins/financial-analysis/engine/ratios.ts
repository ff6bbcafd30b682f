/**
 * The ratios an analyst computes from a statement, each a small function of its inputs. Every
 * function returns undefined when an input is missing or the division is meaningless (zero
 * denominator), never NaN or Infinity, so a report can say "not computable" instead of showing
 * garbage.
 */
import type { LineItemId, Statement } from './statement-reader';

type Input = number | null | undefined;

function known(...values: Input[]): boolean {
  return values.every((v) => typeof v === 'number' && Number.isFinite(v));
}

/** a ÷ b, or undefined when either is missing or b is zero. */
export function safeDivide(a: Input, b: Input): number | undefined {
  if (!known(a, b) || b === 0) return undefined;
  const value = (a as number) / (b as number);
  return Number.isFinite(value) ? value : undefined;
}

/** Gross margin = gross profit ÷ revenue (gross profit = revenue − cost of sales). */
export function grossMargin(revenue: Input, costOfSales: Input, grossProfit?: Input): number | undefined {
  const profit = known(grossProfit) ? grossProfit : known(revenue, costOfSales) ? (revenue as number) - (costOfSales as number) : undefined;
  return safeDivide(profit, revenue);
}

/** Operating margin = operating income (EBIT) ÷ revenue. */
export function operatingMargin(operatingIncome: Input, revenue: Input): number | undefined {
  return safeDivide(operatingIncome, revenue);
}

/** Net margin = net income ÷ revenue. */
export function netMargin(netIncome: Input, revenue: Input): number | undefined {
  return safeDivide(netIncome, revenue);
}

/** Revenue growth = (this period − previous) ÷ |previous|. */
export function revenueGrowth(current: Input, previous: Input): number | undefined {
  if (!known(current, previous)) return undefined;
  return safeDivide((current as number) - (previous as number), Math.abs(previous as number));
}

/** Current ratio = current assets ÷ current liabilities. */
export function currentRatio(currentAssets: Input, currentLiabilities: Input): number | undefined {
  return safeDivide(currentAssets, currentLiabilities);
}

/** Quick ratio = (current assets − inventory) ÷ current liabilities; no inventory line counts as none held. */
export function quickRatio(currentAssets: Input, inventory: Input, currentLiabilities: Input): number | undefined {
  if (!known(currentAssets)) return undefined;
  return safeDivide((currentAssets as number) - (known(inventory) ? (inventory as number) : 0), currentLiabilities);
}

/** Debt-to-equity = total debt ÷ equity; undefined when equity is zero or negative (the ratio then means nothing). */
export function debtToEquity(totalDebt: Input, equity: Input): number | undefined {
  if (!known(equity) || (equity as number) <= 0) return undefined;
  return safeDivide(totalDebt, equity);
}

/** Interest cover = operating income (EBIT) ÷ interest expense (taken as a positive cost). */
export function interestCover(operatingIncome: Input, interestExpense: Input): number | undefined {
  if (!known(interestExpense)) return undefined;
  return safeDivide(operatingIncome, Math.abs(interestExpense as number));
}

/** Cash conversion = operating cash flow ÷ net income; undefined when net income is zero or negative. */
export function cashConversion(operatingCashFlow: Input, netIncome: Input): number | undefined {
  if (!known(netIncome) || (netIncome as number) <= 0) return undefined;
  return safeDivide(operatingCashFlow, netIncome);
}

/** Days sales outstanding = receivables ÷ revenue × 365 (period-end receivables, annual revenue). */
export function daysSalesOutstanding(receivables: Input, revenue: Input, daysInPeriod = 365): number | undefined {
  const r = safeDivide(receivables, revenue);
  return r === undefined ? undefined : r * daysInPeriod;
}

/** Days inventory outstanding = inventory ÷ cost of sales × 365. */
export function daysInventoryOutstanding(inventory: Input, costOfSales: Input, daysInPeriod = 365): number | undefined {
  const r = safeDivide(inventory, costOfSales);
  return r === undefined ? undefined : r * daysInPeriod;
}

export type RatioId =
  | 'grossMargin'
  | 'operatingMargin'
  | 'netMargin'
  | 'revenueGrowth'
  | 'currentRatio'
  | 'quickRatio'
  | 'debtToEquity'
  | 'interestCover'
  | 'cashConversion'
  | 'dso'
  | 'dio';

export interface RatioDefinition {
  id: RatioId;
  name: string;
  formula: string;
  unit: 'percent' | 'times' | 'days';
  needs: LineItemId[];
}

export const RATIO_DEFINITIONS: RatioDefinition[] = [
  { id: 'grossMargin', name: 'Gross margin', formula: '(revenue − cost of sales) ÷ revenue', unit: 'percent', needs: ['revenue', 'costOfSales'] },
  { id: 'operatingMargin', name: 'Operating margin', formula: 'operating income ÷ revenue', unit: 'percent', needs: ['operatingIncome', 'revenue'] },
  { id: 'netMargin', name: 'Net margin', formula: 'net income ÷ revenue', unit: 'percent', needs: ['netIncome', 'revenue'] },
  { id: 'revenueGrowth', name: 'Revenue growth', formula: '(revenue − previous revenue) ÷ previous revenue', unit: 'percent', needs: ['revenue'] },
  { id: 'currentRatio', name: 'Current ratio', formula: 'current assets ÷ current liabilities', unit: 'times', needs: ['currentAssets', 'currentLiabilities'] },
  {
    id: 'quickRatio',
    name: 'Quick ratio',
    formula: '(current assets − inventory) ÷ current liabilities',
    unit: 'times',
    needs: ['currentAssets', 'currentLiabilities'],
  },
  { id: 'debtToEquity', name: 'Debt-to-equity', formula: 'total debt ÷ equity', unit: 'times', needs: ['totalDebt', 'equity'] },
  { id: 'interestCover', name: 'Interest cover', formula: 'operating income ÷ interest expense', unit: 'times', needs: ['operatingIncome', 'interestExpense'] },
  { id: 'cashConversion', name: 'Cash conversion', formula: 'operating cash flow ÷ net income', unit: 'times', needs: ['operatingCashFlow', 'netIncome'] },
  { id: 'dso', name: 'Days sales outstanding', formula: 'receivables ÷ revenue × 365', unit: 'days', needs: ['receivables', 'revenue'] },
  { id: 'dio', name: 'Days inventory outstanding', formula: 'inventory ÷ cost of sales × 365', unit: 'days', needs: ['inventory', 'costOfSales'] },
];

/** Every ratio for every period of a statement (undefined where not computable); growth is undefined for the first period. */
export function computeRatios(statement: Statement): Record<RatioId, (number | undefined)[]> {
  const v = (id: LineItemId, i: number) => statement.items[id]?.values[i] ?? undefined;
  const out = {} as Record<RatioId, (number | undefined)[]>;
  for (const def of RATIO_DEFINITIONS) out[def.id] = [];
  statement.periods.forEach((_, i) => {
    out.grossMargin.push(grossMargin(v('revenue', i), v('costOfSales', i), v('grossProfit', i)));
    out.operatingMargin.push(operatingMargin(v('operatingIncome', i), v('revenue', i)));
    out.netMargin.push(netMargin(v('netIncome', i), v('revenue', i)));
    out.revenueGrowth.push(i === 0 ? undefined : revenueGrowth(v('revenue', i), v('revenue', i - 1)));
    out.currentRatio.push(currentRatio(v('currentAssets', i), v('currentLiabilities', i)));
    out.quickRatio.push(quickRatio(v('currentAssets', i), v('inventory', i), v('currentLiabilities', i)));
    out.debtToEquity.push(debtToEquity(v('totalDebt', i), v('equity', i)));
    out.interestCover.push(interestCover(v('operatingIncome', i), v('interestExpense', i)));
    out.cashConversion.push(cashConversion(v('operatingCashFlow', i), v('netIncome', i)));
    out.dso.push(daysSalesOutstanding(v('receivables', i), v('revenue', i)));
    out.dio.push(daysInventoryOutstanding(v('inventory', i), v('costOfSales', i)));
  });
  return out;
}
