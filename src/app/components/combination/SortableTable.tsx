import { useMemo, type MouseEvent, type ReactNode } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  createTableColumn,
  makeStyles,
  tokens,
  useTableFeatures,
  useTableSort,
  type TableColumnId,
} from '@fluentui/react-components';

export interface Column<R> {
  id: string;
  title: string;
  /** The value sorted on (numbers numerically, text alphabetically; empty values last). */
  value: (row: R) => string | number | null | undefined;
  /** How the cell shows (default: the value). */
  render?: (row: R) => ReactNode;
  numeric?: boolean;
}

const useStyles = makeStyles({
  wrap: { overflowX: 'auto', maxWidth: '100%', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  table: { tableLayout: 'auto' },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums', justifyContent: 'flex-end' },
  empty: { padding: '12px', color: tokens.colorNeutralForeground3 },
});

function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * The table both SortableTable and plugins' paged tables draw: the column headers (a click sorts,
 * `sortDirection` shows which way) and one row per item, numbers right-aligned, scrolling
 * sideways on narrow screens. `label` names the table for assistive technology.
 */
export function ColumnTable<R>({
  label,
  columns,
  rows,
  sortDirection,
  onSort,
  minWidth = 520,
  busy,
}: {
  label: string;
  columns: Column<R>[];
  /** the rows in the order shown, each with its React key */
  rows: { item: R; key: string | number }[];
  sortDirection: (columnId: string) => 'ascending' | 'descending' | undefined;
  onSort: (e: MouseEvent, columnId: string) => void;
  /** px before the table scrolls sideways */ minWidth?: number;
  /** rows are loading (aria-busy) */
  busy?: boolean;
}) {
  const s = useStyles();
  return (
    <div className={s.wrap}>
      <Table aria-label={label} size="small" className={s.table} style={{ minWidth }} sortable aria-busy={busy}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => (
              <TableHeaderCell key={c.id} sortDirection={sortDirection(c.id)} onClick={(e) => onSort(e, c.id)} className={c.numeric ? s.num : undefined}>
                {c.title}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map(({ item, key }) => (
            <TableRow key={key}>
              {columns.map((c) => (
                <TableCell key={c.id} className={c.numeric ? s.num : undefined}>
                  {c.render ? c.render(item) : (c.value(item) ?? '')}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * A Fluent UI table whose column headers sort the rows (click again to reverse), scrolling
 * sideways on narrow screens. `label` names the table for assistive technology.
 */
export function SortableTable<R>({
  label,
  columns,
  rows,
  emptyText = 'Nothing to show.',
  minWidth = 520,
}: {
  label: string;
  columns: Column<R>[];
  rows: R[];
  emptyText?: string;
  /** px before the table scrolls sideways */ minWidth?: number;
}) {
  const s = useStyles();
  const tableColumns = useMemo(
    () => columns.map((c) => createTableColumn<R>({ columnId: c.id, compare: (a, b) => compare(c.value(a), c.value(b)) })),
    [columns],
  );
  const {
    getRows,
    sort: { getSortDirection, toggleColumnSort, sort },
  } = useTableFeatures({ columns: tableColumns, items: rows }, [
    useTableSort({ defaultSortState: { sortColumn: undefined as unknown as TableColumnId, sortDirection: 'ascending' } }),
  ]);
  const sorted = sort(getRows());
  if (!rows.length) return <div className={s.empty}>{emptyText}</div>;
  return (
    <ColumnTable
      label={label}
      columns={columns}
      rows={sorted.map(({ item, rowId }) => ({ item, key: rowId }))}
      sortDirection={getSortDirection}
      onSort={toggleColumnSort}
      minWidth={minWidth}
    />
  );
}
