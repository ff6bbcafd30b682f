/** Reading tabular files (CSV with BOMs, quotes, ';' delimiters, thousands separators, currency symbols) shared by the finance workflows. */
export * from './csv-reader';
export * from './amount';
export * from './zip-budget';
export * from './grid-reader';
