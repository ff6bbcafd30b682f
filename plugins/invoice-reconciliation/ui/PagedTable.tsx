import { startTransition, useEffect, useRef, useState } from 'react';
import { Button, Caption1, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronDoubleLeft20Regular } from '@fluentui/react-icons/svg/chevron-double-left';
import { ChevronDoubleRight20Regular } from '@fluentui/react-icons/svg/chevron-double-right';
import { ChevronLeft20Regular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRight20Regular } from '@fluentui/react-icons/svg/chevron-right';
import { ColumnTable, type Column } from '../../../src/app';
import type { RowsPage, SortDirection } from '../paged';

export interface PageSort {
  column: string;
  direction: SortDirection;
}

/** Loads one page of rows, sorted over every row when `sort` is given (the server sorts). */
export type LoadPage<R> = (offset: number, limit: number, sort: PageSort | undefined) => Promise<RowsPage<R>>;

const useStyles = makeStyles({
  empty: { padding: '12px', color: tokens.colorNeutralForeground3 },
  pager: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '4px 8px' },
  range: { fontVariantNumeric: 'tabular-nums', marginRight: 'auto' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const count = (n: number) => n.toLocaleString('en-GB');

/** "Rows 1–100 of 50,000" (one row, none: their own wording). */
export function rangeText(offset: number, shown: number, total: number): string {
  if (total === 0) return 'No rows';
  if (shown === 0) return `No rows here: the table has ${count(total)}`;
  return `Rows ${count(offset + 1)}–${count(offset + shown)} of ${count(total)}`;
}

/**
 * A Fluent UI table that shows a long result a page at a time (issue 25: 100,000 rows without
 * freezing the tab): the first page comes with the result, the others from `load`; a column
 * header sorts every row (on the server; click again to reverse) and goes back to the first
 * page. The page controls are buttons (keyboard reachable) and the range line is announced.
 */
export function PagedTable<R>({
  label,
  columns,
  total,
  first,
  load,
  pageSize,
  emptyText = 'Nothing to show.',
  minWidth = 520,
}: {
  label: string;
  columns: Column<R>[];
  total: number;
  /** the rows of the first page, in the result's own order */
  first: R[];
  load: LoadPage<R>;
  pageSize: number;
  emptyText?: string;
  minWidth?: number;
}) {
  const s = useStyles();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<PageSort>();
  const [rows, setRows] = useState<R[]>(first);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const request = useRef(0);
  const pages = Math.max(1, Math.ceil(total / pageSize));

  useEffect(() => {
    if (page === 0 && !sort) {
      request.current += 1;
      setRows(first);
      setLoading(false);
      setError(undefined);
      return;
    }
    const mine = ++request.current;
    setLoading(true);
    setError(undefined);
    load(page * pageSize, pageSize, sort)
      .then((p) => {
        // a transition: a page of rows renders in slices that yield to the browser
        if (request.current === mine)
          startTransition(() => {
            setRows(p.rows);
            setLoading(false);
          });
      })
      .catch((e: Error) => {
        if (request.current !== mine) return;
        setError(e.message || 'These rows could not be loaded. Please try again.');
        setLoading(false);
      });
  }, [page, sort, first, load, pageSize]);

  if (!total) return <div className={s.empty}>{emptyText}</div>;

  const toggleSort = (column: string) => {
    setSort((now) =>
      now?.column === column ? { column, direction: now.direction === 'ascending' ? 'descending' : 'ascending' } : { column, direction: 'ascending' },
    );
    setPage(0);
  };
  const go = (to: number) => setPage(Math.min(pages - 1, Math.max(0, to)));
  const offset = page * pageSize;

  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <ColumnTable
        label={label}
        columns={columns}
        rows={rows.map((item, i) => ({ item, key: offset + i }))}
        sortDirection={(id) => (sort?.column === id ? sort.direction : undefined)}
        onSort={(_, id) => toggleSort(id)}
        minWidth={minWidth}
        busy={loading}
      />
      <nav className={s.pager} aria-label={`${label} pages`}>
        <Caption1 className={s.range} aria-live="polite">
          {rangeText(offset, loading ? Math.min(pageSize, total - offset) : rows.length, total)}
          {pages > 1 ? ` · page ${count(page + 1)} of ${count(pages)}` : ''}
        </Caption1>
        {loading && <Spinner size="extra-tiny" aria-label="Loading rows" />}
        <Button size="small" appearance="subtle" icon={<ChevronDoubleLeft20Regular />} aria-label="First page" disabled={page === 0} onClick={() => go(0)} />
        <Button size="small" appearance="subtle" icon={<ChevronLeft20Regular />} disabled={page === 0} onClick={() => go(page - 1)}>
          Previous
        </Button>
        <Button
          size="small"
          appearance="subtle"
          icon={<ChevronRight20Regular />}
          iconPosition="after"
          disabled={page >= pages - 1}
          onClick={() => go(page + 1)}
        >
          Next
        </Button>
        <Button
          size="small"
          appearance="subtle"
          icon={<ChevronDoubleRight20Regular />}
          aria-label="Last page"
          disabled={page >= pages - 1}
          onClick={() => go(pages - 1)}
        />
      </nav>
      {error && (
        <Caption1 as="p" role="alert" className={s.error}>
          {error}
        </Caption1>
      )}
    </div>
  );
}
