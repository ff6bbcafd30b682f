/** A two-year financial statement as CSV (the layout the financial-analysis plugin reads), for tests. */
export const STATEMENT_CSV = [
  'Line item,FY2024,FY2023',
  'Revenue,"1,200,000","1,000,000"',
  'Cost of sales,(700000),(600000)',
  'Operating expenses,300000,250000',
  'Net income,120000,90000',
  'Total current assets,450000,400000',
  'Total current liabilities,300000,250000',
  'Total equity,560000,500000',
  'Net cash from operating activities,96000,110000',
].join('\n');
