import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { PagedTable, rangeText, type LoadPage } from '../../../plugins/invoice-reconciliation/ui/PagedTable';
import type { Column } from '../../../src/app';

interface Row {
  key: string;
  total: number;
}
const ALL: Row[] = Array.from({ length: 250 }, (_, i) => ({ key: `PO-${i + 1}`, total: (i * 7) % 250 }));
const COLUMNS: Column<Row>[] = [
  { id: 'key', title: 'Key', value: (r) => r.key },
  { id: 'total', title: 'Total', value: (r) => r.total, numeric: true },
];

function setup() {
  const calls: string[] = [];
  const load: LoadPage<Row> = jest.fn(async (offset, limit, sort) => {
    calls.push(`${offset}+${limit}${sort ? ` ${sort.column} ${sort.direction}` : ''}`);
    const rows = sort ? [...ALL].sort((a, b) => (a.total - b.total) * (sort.direction === 'ascending' ? 1 : -1)) : ALL;
    return { total: ALL.length, offset, rows: rows.slice(offset, offset + limit) };
  });
  render(
    <FluentProvider theme={webLightTheme}>
      <PagedTable label="Orders table" columns={COLUMNS} total={ALL.length} first={ALL.slice(0, 100)} load={load} pageSize={100} />
    </FluentProvider>,
  );
  const table = screen.getByRole('table', { name: 'Orders table' });
  // the body rows' first cells, read from the DOM: role queries over 100 rows and their cells
  // took some 0.3 s a call in jsdom, and the waits below call this many times
  const keys = () => Array.from(table.querySelectorAll('tbody tr'), (r) => r.querySelector('td')?.textContent);
  const pager = screen.getByRole('navigation', { name: 'Orders table pages' });
  return { calls, keys, pager, table };
}

describe('PagedTable (issue 25: long results a page at a time)', () => {
  it('says which rows it shows', () => {
    expect(rangeText(0, 100, 50_000)).toBe('Rows 1–100 of 50,000');
    expect(rangeText(49_900, 100, 50_000)).toBe('Rows 49,901–50,000 of 50,000');
    expect(rangeText(0, 0, 0)).toBe('No rows');
  });

  it('shows the first page without asking, then pages with the buttons and the keyboard', async () => {
    const user = userEvent.setup();
    const { calls, keys, pager } = setup();
    expect(keys()).toEqual(ALL.slice(0, 100).map((r) => r.key));
    expect(pager).toHaveTextContent('Rows 1–100 of 250 · page 1 of 3');
    expect(within(pager).getByRole('button', { name: 'First page' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(calls).toEqual([]);

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(keys()[0]).toBe('PO-101'));
    expect(keys()).toEqual(ALL.slice(100, 200).map((r) => r.key));
    expect(pager).toHaveTextContent('Rows 101–200 of 250 · page 2 of 3');
    expect(calls).toEqual(['100+100']);

    // the last page by keyboard: Tab to the button, Enter
    within(pager).getByRole('button', { name: 'Next' }).focus();
    await user.tab();
    expect(within(pager).getByRole('button', { name: 'Last page' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(keys()).toEqual(ALL.slice(200).map((r) => r.key)));
    expect(pager).toHaveTextContent('Rows 201–250 of 250 · page 3 of 3');
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Last page' })).toBeDisabled();

    // back to the first page: the rows that came with the result, not asked again
    await user.click(within(pager).getByRole('button', { name: 'First page' }));
    await waitFor(() => expect(keys()[0]).toBe('PO-1'));
    expect(calls).toEqual(['100+100', '200+100']);
  });

  it('a header sorts every row (asked of the loader) and goes back to the first page', async () => {
    const user = userEvent.setup();
    const { calls, keys, pager, table } = setup();
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(keys()[0]).toBe('PO-101'));
    await user.click(within(table).getByRole('columnheader', { name: 'Total' }));
    const ascending = [...ALL].sort((a, b) => a.total - b.total);
    await waitFor(() => expect(keys()).toEqual(ascending.slice(0, 100).map((r) => r.key)));
    expect(pager).toHaveTextContent('Rows 1–100 of 250 · page 1 of 3');
    expect(within(table).getByRole('columnheader', { name: 'Total' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(table).getByRole('columnheader', { name: 'Total' }));
    await waitFor(() => expect(keys()[0]).toBe([...ALL].sort((a, b) => b.total - a.total)[0].key));
    expect(within(table).getByRole('columnheader', { name: 'Total' })).toHaveAttribute('aria-sort', 'descending');
    expect(calls).toEqual(['100+100', '0+100 total ascending', '0+100 total descending']);
  });

  it('says so when a page cannot be loaded, and keeps the controls', async () => {
    const user = userEvent.setup();
    const load: LoadPage<Row> = async () => {
      throw new Error('This result is no longer kept on the server: press Test Configuration again to see it.');
    };
    render(
      <FluentProvider theme={webLightTheme}>
        <PagedTable label="Orders table" columns={COLUMNS} total={250} first={ALL.slice(0, 100)} load={load} pageSize={100} />
      </FluentProvider>,
    );
    await act(() => user.click(screen.getByRole('button', { name: 'Next' })));
    expect(await screen.findByRole('alert')).toHaveTextContent('This result is no longer kept on the server: press Test Configuration again to see it.');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('an empty table says so', () => {
    render(
      <PagedTable
        label="Orders table"
        columns={COLUMNS}
        total={0}
        first={[]}
        load={jest.fn()}
        pageSize={100}
        emptyText="Every record found its counterpart."
      />,
    );
    expect(screen.getByText('Every record found its counterpart.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
