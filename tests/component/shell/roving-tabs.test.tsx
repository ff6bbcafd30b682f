import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, Tab, TabList, webLightTheme, type TabListProps } from '@fluentui/react-components';
import { useState, type ReactNode } from 'react';
import { RovingTab, RovingTabList } from '../../../src/app/components/RovingTabs';

// issue 7 ('Speed'): Fluent's TabList and Tab without Tabster; the same markup and styles, and
// the WAI-ARIA tabs keyboard pattern done by the component

const TABS = ['Details', 'Plan', 'Billing', 'Password'];

function markupOf(node: ReactNode): string {
  const { container, unmount } = render(<FluentProvider theme={webLightTheme}>{node}</FluentProvider>);
  const html = container.innerHTML
    .replace(/fui-FluentProvider_r_[a-z0-9]+_/g, 'provider')
    // what may differ: who does the keyboard pattern (Tabster's attribute, or a roving tabindex)
    .replace(/ data-tabster="[^"]*"/g, '')
    .replace(/ tabindex="-?\d+"/g, '');
  unmount();
  return html;
}

function Tabs({ roving, initial = 'Plan', ...props }: { roving: boolean; initial?: string } & Partial<TabListProps>) {
  const [selected, setSelected] = useState<unknown>(initial);
  const List = roving ? RovingTabList : TabList;
  const One = roving ? RovingTab : Tab;
  return (
    <>
      <button type="button">before</button>
      <List aria-label="Sections" selectedValue={selected as string} onTabSelect={(_e, d) => setSelected(d.value)} {...props}>
        {TABS.map((t) => (
          <One key={t} value={t}>
            {t}
          </One>
        ))}
      </List>
      <button type="button">after</button>
    </>
  );
}

describe('RovingTabList and RovingTab', () => {
  it("render what Fluent's TabList and Tab render, for each size, appearance and orientation", () => {
    for (const size of ['small', 'medium', 'large'] as const)
      for (const appearance of ['transparent', 'subtle'] as const)
        for (const vertical of [false, true])
          expect(markupOf(<Tabs roving size={size} appearance={appearance} vertical={vertical} />)).toBe(
            markupOf(<Tabs roving={false} size={size} appearance={appearance} vertical={vertical} />),
          );
  });

  it('are one Tab stop, on the selected tab', async () => {
    render(<Tabs roving />);
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'before' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Plan' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('tab', { name: 'Plan' })).toHaveFocus();
  });

  it('move between tabs with the arrow keys, wrapping round, and to the ends with Home and End; Enter selects', async () => {
    render(<Tabs roving />);
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'Plan' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Billing' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveFocus();
    // moving the focus does not select; Enter does, and the selected tab becomes the Tab stop
    expect(screen.getByRole('tab', { name: 'Plan' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Plan' })).toHaveAttribute('tabindex', '-1');
  });

  it('use the up and down arrows when vertical, and select on focus when asked', async () => {
    render(<Tabs roving vertical selectTabOnFocus />);
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'Plan' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Plan' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('tab', { name: 'Billing' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Billing' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
  });

  it('skip disabled tabs, and leave every tab a Tab stop while none is selected', async () => {
    render(
      <RovingTabList aria-label="Sections">
        <RovingTab value="a">A</RovingTab>
        <RovingTab value="b" disabled>
          B
        </RovingTab>
        <RovingTab value="c">C</RovingTab>
      </RovingTabList>,
    );
    expect(screen.getByRole('tab', { name: 'A' })).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'C' })).toHaveAttribute('tabindex', '0');
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'A' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'C' })).toHaveFocus();
  });
});
