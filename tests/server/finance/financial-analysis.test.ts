import ExcelJS from 'exceljs';
import type { TextGenerator } from '../../../src/server/ai/text-generation/text-generator';
import { analyseStatement, FOCUS_AREAS } from '../../../plugins/financial-analysis/engine/analysis';
import {
  cashConversion,
  computeRatios,
  currentRatio,
  daysInventoryOutstanding,
  daysSalesOutstanding,
  debtToEquity,
  grossMargin,
  interestCover,
  netMargin,
  operatingMargin,
  quickRatio,
  revenueGrowth,
  safeDivide,
} from '../../../plugins/financial-analysis/engine/ratios';
import { linesToGrid, readStatement, StatementReadError } from '../../../plugins/financial-analysis/engine/statement-reader';

const templates: TextGenerator = { generate: async (task) => ({ text: task.template(), source: 'template' }) };

// Newest period first, costs in brackets, as many statements are printed.
const CSV = [
  'Line item,Note,FY2024,FY2023',
  'Revenue,3,"1,200,000","1,000,000"',
  'Cost of sales,,(700000),(600000)',
  'Operating expenses,,300000,250000',
  'Operating income,,200000,150000',
  'Interest expense,,"(40,000)","(30,000)"',
  'Net income,,120000,90000',
  'Cash and cash equivalents,,80000,100000',
  'Trade receivables,,180000,150000',
  'Inventories,,140000,120000',
  'Total current assets,,450000,400000',
  'Total current liabilities,,300000,250000',
  'Total debt,,380000,400000',
  'Total equity,,560000,500000',
  'Net cash from operating activities,,96000,110000',
  'Gross margin %,,41.7,40',
].join('\n');

async function sample() {
  return readStatement({ name: 'accounts.csv', kind: 'csv', data: CSV });
}

describe('ratio functions against hand-computed values', () => {
  it('computes each ratio', () => {
    expect(grossMargin(1_200_000, 700_000)).toBeCloseTo(500_000 / 1_200_000, 12); // 0.41666…
    expect(grossMargin(1_000_000, undefined, 400_000)).toBe(0.4);
    expect(operatingMargin(200_000, 1_200_000)).toBeCloseTo(0.1666667, 6);
    expect(netMargin(120_000, 1_200_000)).toBe(0.1);
    expect(revenueGrowth(1_200_000, 1_000_000)).toBeCloseTo(0.2, 12);
    expect(revenueGrowth(-50, -100)).toBe(0.5); // from a loss-making base, measured against |previous|
    expect(currentRatio(450_000, 300_000)).toBe(1.5);
    expect(quickRatio(450_000, 140_000, 300_000)).toBeCloseTo(310 / 300, 12); // 1.0333…
    expect(quickRatio(450_000, null, 300_000)).toBe(1.5);
    expect(debtToEquity(380_000, 560_000)).toBeCloseTo(0.6785714, 6);
    expect(interestCover(200_000, 40_000)).toBe(5);
    expect(interestCover(200_000, -40_000)).toBe(5);
    expect(cashConversion(96_000, 120_000)).toBe(0.8);
    expect(daysSalesOutstanding(180_000, 1_200_000)).toBeCloseTo(54.75, 10);
    expect(daysInventoryOutstanding(140_000, 700_000)).toBeCloseTo(73, 10);
  });

  it('returns undefined, never NaN or Infinity, when an input is missing or meaningless', () => {
    expect(safeDivide(1, 0)).toBeUndefined();
    expect(safeDivide(undefined, 2)).toBeUndefined();
    expect(safeDivide(1, null)).toBeUndefined();
    expect(grossMargin(0, 10)).toBeUndefined();
    expect(revenueGrowth(100, 0)).toBeUndefined();
    expect(currentRatio(100, 0)).toBeUndefined();
    expect(quickRatio(undefined, 5, 10)).toBeUndefined();
    expect(debtToEquity(100, -20)).toBeUndefined();
    expect(debtToEquity(100, 0)).toBeUndefined();
    expect(interestCover(100, 0)).toBeUndefined();
    expect(cashConversion(50, 0)).toBeUndefined();
    expect(cashConversion(50, -10)).toBeUndefined();
    expect(daysSalesOutstanding(10, 0)).toBeUndefined();
    expect(daysInventoryOutstanding(10, undefined)).toBeUndefined();
    expect(safeDivide(Number.MAX_VALUE, Number.MIN_VALUE)).toBeUndefined();
  });
});

describe('statement reader', () => {
  it('finds the label and period columns, skips the note column and orders periods oldest first', async () => {
    const s = await sample();
    expect(s.periods).toEqual(['FY2023', 'FY2024']);
    expect(s.items.revenue).toEqual({ label: 'Revenue', values: [1_000_000, 1_200_000] });
    expect(s.items.costOfSales!.values).toEqual([600_000, 700_000]); // brackets read, costs kept positive
    expect(s.items.interestExpense!.values).toEqual([30_000, 40_000]);
    expect(s.items.cash!.label).toBe('Cash and cash equivalents');
    expect(s.items.receivables!.values).toEqual([150_000, 180_000]);
    expect(s.items.operatingCashFlow!.values).toEqual([110_000, 96_000]);
    expect(s.items.grossProfit).toEqual({ label: 'Gross profit', values: [400_000, 500_000], derived: 'revenue − cost of sales' });
    expect(s.otherLabels).toEqual(['Gross margin %']); // a percentage row is not an amount
    expect(s.unreadable).toEqual([]);
  });

  it('computes every ratio for every period', async () => {
    const r = computeRatios(await sample());
    expect(r.grossMargin[0]).toBe(0.4);
    expect(r.grossMargin[1]).toBeCloseTo(5 / 12, 12);
    expect(r.revenueGrowth).toEqual([undefined, expect.closeTo(0.2, 12)]);
    expect(r.currentRatio).toEqual([1.6, 1.5]);
    expect(r.quickRatio[0]).toBeCloseTo(1.12, 12);
    expect(r.debtToEquity[0]).toBe(0.8);
    expect(r.interestCover).toEqual([5, 5]);
    expect(r.cashConversion[0]).toBeCloseTo(110 / 90, 12);
    expect(r.dso[0]).toBeCloseTo(54.75, 10);
    expect(r.dio[1]).toBeCloseTo(73, 10);
  });

  it('reads a statement laid out with periods down the side', async () => {
    const s = await readStatement({ name: 't.csv', kind: 'csv', data: 'Year;Sales;COGS;Net profit\n2023;1.000,00;600;90\n2024;1.200,00;700;120\n' });
    expect(s.periods).toEqual(['2023', '2024']);
    expect(s.items.revenue!.values).toEqual([1000, 1200]);
    expect(s.items.costOfSales!.values).toEqual([600, 700]);
    expect(s.items.netIncome!.values).toEqual([90, 120]);
    expect(s.unreadable).toEqual([
      'No current assets line was found (looked for labels such as "total current assets", "current assets").',
      'No current liabilities line was found (looked for labels such as "total current liabilities", "current liabilities").',
      'No equity line was found (looked for labels such as "total equity", "equity", "shareholders equity").',
    ]);
  });

  it('reads every sheet of an XLSX workbook, formulas by their results', async () => {
    const workbook = new ExcelJS.Workbook();
    const pl = workbook.addWorksheet('P&L');
    pl.addRow(['Acme Ltd — Income statement']);
    pl.addRow([]);
    pl.addRow(['', 2023, 2024]);
    pl.addRow(['Turnover', 1000, 1200]);
    pl.addRow(['Cost of goods sold', -600, -700]);
    pl.addRow(['Gross profit', { formula: 'B4+B5', result: 400 }, { formula: 'C4+C5', result: 500 }]);
    pl.addRow(['Profit for the year', 90, 120]);
    const bs = workbook.addWorksheet('Balance sheet');
    bs.addRow(['', '', '31 Dec 2024', '31 Dec 2023']);
    bs.addRow(['Current assets', '', 450, 400]);
    bs.addRow(['Current liabilities', '', 300, 250]);
    bs.addRow(['Long-term debt', '', 300, 320]);
    bs.addRow(['Bank overdraft', '', 80, 80]);
    bs.addRow(["Shareholders' equity", '', 560, 'n/a']);
    const data = new Uint8Array(await workbook.xlsx.writeBuffer());
    const s = await readStatement({ name: 'accounts.xlsx', kind: 'xlsx', data });
    // "2023" on one sheet and "31 Dec 2023" on the other are the same period.
    expect(s.periods).toEqual(['2023', '2024']);
    expect(s.items.revenue!.values).toEqual([1000, 1200]);
    expect(s.items.costOfSales!.values).toEqual([600, 700]);
    expect(s.items.grossProfit).toEqual({ label: 'Gross profit', values: [400, 500] });
    expect(s.items.currentAssets!.values).toEqual([400, 450]);
    expect(s.items.totalDebt).toEqual({ label: 'long term debt + bank overdraft', values: [400, 380], derived: 'sum of the debt lines' });
    expect(s.items.equity!.values).toEqual([null, 560]);
    expect(s.unreadable).toContain('Sheet "Balance sheet": "Shareholders\' equity" for 31 Dec 2023: "n/a" is not a number.');
  });

  it('reads PDF text lines, with a note reference before the amounts', async () => {
    const lines = [
      'Acme Ltd Annual Report',
      'Income statement',
      '                         2024          2023',
      'Revenue          4   1,200,000    1,000,000',
      'Cost of sales         (700,000)    (600,000)',
      'Net income              120,000       90,000',
      'Total current assets    450,000      400,000',
      'Total current liabilities 300,000    250,000',
      'Total equity            560,000      500,000',
    ];
    expect(linesToGrid(['Revenue 5 1,200 1,000'])).toEqual([['Revenue', '5', '1,200', '1,000']]);
    const s = await readStatement({ name: 'report.pdf', kind: 'pdf-text', lines });
    expect(s.periods).toEqual(['2023', '2024']);
    expect(s.items.revenue!.values).toEqual([1_000_000, 1_200_000]);
    expect(s.items.costOfSales!.values).toEqual([600_000, 700_000]);
    expect(s.items.equity!.values).toEqual([500_000, 560_000]);
  });

  it('says clearly what could not be read', async () => {
    await expect(readStatement({ name: 'scan.pdf', kind: 'pdf-text', lines: ['', '  '] })).rejects.toThrow(
      new StatementReadError('"scan.pdf" has no text layer (it is probably a scanned image), so no figures could be read.'),
    );
    await expect(readStatement({ name: 'x.csv', kind: 'csv', data: 'Name,Score\nAlice,3\nBob,4\n' })).rejects.toThrow(
      /No financial line items were recognised in "x.csv"; the labels found were: Alice, Bob\./,
    );
    await expect(readStatement({ name: 'bad.xlsx', kind: 'xlsx', data: new Uint8Array([1, 2, 3]) })).rejects.toThrow(
      /"bad.xlsx" could not be opened as an Excel workbook/,
    );
    const s = await readStatement({ name: 'g.csv', kind: 'csv', data: 'Item,2023,2024\nRevenue,100,abc\nNet income,10,12\n' });
    expect(s.unreadable[0]).toBe('"Revenue" for 2024: "abc" is not a number.');
    expect(s.items.revenue!.values).toEqual([100, null]);
  });
});

describe('analysis report', () => {
  it('overall position: findings cite the numbers, ratios and chart are filled', async () => {
    const report = await analyseStatement(await sample(), 'overall-financial-position', templates);
    expect(report.periods).toEqual(['FY2023', 'FY2024']);
    expect(report.ratios.find((r) => r.id === 'dso')!.values).toEqual([54.75, 54.75]);
    expect(report.ratios.find((r) => r.id === 'revenueGrowth')!.values).toEqual([null, 0.2]);
    const titles = report.findings.map((f) => f.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Strong revenue growth of 20.0%',
        'Gross margin of 41.7%',
        'Healthy current ratio of 1.50×',
        'Comfortable interest cover of 5.00×',
        'Cash down 20.0%',
        'Collections lengthening: 55 days sales outstanding',
      ]),
    );
    const growth = report.findings.find((f) => f.metric === 'revenueGrowth')!;
    expect(growth.detail).toBe('Revenue went from 1,000,000 in FY2023 to 1,200,000 in FY2024 (+20.0%).');
    expect(growth.values).toEqual([
      { period: 'FY2023', value: 1_000_000 },
      { period: 'FY2024', value: 1_200_000 },
    ]);
    // Concerns and watch points come first.
    expect(report.findings[0].severity).toBe('watch');
    expect(report.chart).toEqual({
      x: ['FY2023', 'FY2024'],
      series: [
        { name: 'Revenue', values: [1_000_000, 1_200_000] },
        { name: 'Gross profit', values: [400_000, 500_000] },
        { name: 'Operating income', values: [150_000, 200_000] },
        { name: 'Net income', values: [90_000, 120_000] },
      ],
    });
    expect(report.summary).toMatch(/^Overall financial position — accounts.csv, FY2023 to FY2024\./);
    expect(report.summary_source).toBe('template');
    expect(report.unreadable).toEqual([]);
  });

  it('risk focus reports only risks, with recommendations that carry numbers', async () => {
    const report = await analyseStatement(await sample(), 'risk-and-vulnerabilities', templates);
    expect(report.findings.map((f) => [f.severity, f.title])).toEqual([
      ['watch', 'Cash down 20.0%'],
      ['watch', 'Collections lengthening: 55 days sales outstanding'],
    ]);
    // 180,000 − 1,200,000 × 45 ÷ 365 = 32,054.79
    expect(report.recommendations).toEqual([
      'Prepare a 13-week cash forecast: cash fell by 20,000 in one period.',
      'Tighten credit control: 45 days of sales outstanding would release about 32,055.',
    ]);
  });

  it('opportunities focus quantifies the cash tied up in working capital', async () => {
    const report = await analyseStatement(await sample(), 'opportunities-and-strengths', templates);
    expect(report.findings.every((f) => f.severity === 'strength' || f.severity === 'opportunity')).toBe(true);
    // 140,000 − 700,000 × 60 ÷ 365 = 24,931.51
    expect(report.findings.map((f) => f.title)).toContain('About 24,932 of cash tied up in inventory');
    expect(report.findings.map((f) => f.title)).toContain('About 32,055 of cash tied up in receivables');
  });

  it('each focus area has its own emphasis', async () => {
    const statement = await sample();
    const reports = await Promise.all(FOCUS_AREAS.map((f) => analyseStatement(statement, f, templates)));
    const topics = reports.map((r) => [...new Set(r.findings.map((f) => f.topic))].sort().join(','));
    expect(new Set(topics).size).toBe(5);
    const sales = reports[4];
    expect(sales.findings.every((f) => f.topic === 'growth' || f.topic === 'profitability')).toBe(true);
    expect(sales.chart.series.map((s) => s.name)).toEqual(['Revenue', 'Cost of sales', 'Gross profit', 'Operating income', 'Net income']);
    const cash = reports[3];
    expect(cash.findings.map((f) => f.topic).every((t) => ['cash', 'liquidity', 'efficiency'].includes(t))).toBe(true);
    expect(cash.findings.find((f) => f.metric === 'cashConversion')!.detail).toBe(
      'Operating cash flow of 96,000 against net income of 120,000 in FY2024: 80.0% of profit turned into cash.',
    );
  });

  it('names the ratios it could not compute and why', async () => {
    const statement = await readStatement({ name: 'p.csv', kind: 'csv', data: 'Item,2024\nRevenue,100\nNet income,-5\n' });
    const report = await analyseStatement(statement, 'sales-and-income', templates);
    expect(report.findings.map((f) => f.title)).toEqual(['Negative net margin (-5.0%)']);
    expect(report.unreadable).toEqual(
      expect.arrayContaining([
        'Revenue growth could not be computed: it needs at least two periods.',
        'Quick ratio could not be computed: no current assets or current liabilities line.',
        'Cash conversion could not be computed: no operating cash flow line.',
      ]),
    );
    await expect(analyseStatement(statement, 'everything' as never, templates)).rejects.toThrow(/The focus area must be one of overall-financial-position/);
  });
});
