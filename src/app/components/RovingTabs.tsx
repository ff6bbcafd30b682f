import { forwardRef, type KeyboardEvent } from 'react';
import {
  renderTab_unstable,
  renderTabList_unstable,
  useTabBase_unstable,
  useTabListBase_unstable,
  useTabListContext_unstable,
  useTabListContextValues_unstable,
  useTabListStyles_unstable,
  useTabStyles_unstable,
  type TabListProps,
  type TabListState,
  type TabProps,
  type TabState,
} from '@fluentui/react-tabs';
import { mergeCallbacks, omit, slot } from '@fluentui/react-utilities';

/**
 * Fluent's TabList and Tab, built from the hooks Fluent composes them of, with the WAI-ARIA tabs
 * keyboard pattern done here (a roving tabindex and arrow keys) instead of by Tabster: Fluent's
 * pair asks Tabster for it, and Tabster (about 12 KB gzip) would otherwise be part of the first
 * load of /my-account (issue 7 'Speed'). Same state, styles and markup as Fluent's apart from
 * Tabster's data attribute and the tabindex (tests/component/shell/roving-tabs.test.tsx):
 * - Tab moves into the list onto the selected tab, and out of the list from it;
 * - the arrow keys of the list's orientation move between enabled tabs, wrapping round, and
 *   Home and End go to the first and last (with `selectTabOnFocus`, focusing selects).
 */
export const RovingTabList = forwardRef<HTMLDivElement, TabListProps>((props, ref) => {
  const { appearance = 'transparent', reserveSelectedTabSpace = true, size = 'medium' } = props;
  const base = useTabListBase_unstable(props, ref);
  const state: TabListState = {
    ...base,
    root: { ...base.root, onKeyDown: mergeCallbacks(base.root.onKeyDown, (e: KeyboardEvent<HTMLDivElement>) => moveFocus(e, base.vertical)) },
    appearance,
    reserveSelectedTabSpace,
    size,
  };
  const contextValues = useTabListContextValues_unstable(state);
  useTabListStyles_unstable(state);
  return renderTabList_unstable(state, contextValues);
});
RovingTabList.displayName = 'RovingTabList';

/** A tab of a RovingTabList: Fluent's Tab, a Tab stop only while selected (or while none is). */
export const RovingTab = forwardRef<HTMLButtonElement, TabProps>((props, ref) => {
  const base = useTabBase_unstable(props, ref);
  const appearance = useTabListContext_unstable((ctx) => ctx.appearance);
  const reserveSelectedTabSpace = useTabListContext_unstable((ctx) => ctx.reserveSelectedTabSpace);
  const size = useTabListContext_unstable((ctx) => ctx.size ?? 'medium');
  const noneSelected = useTabListContext_unstable((ctx) => ctx.selectedValue === undefined);
  const { content } = props;
  const reserved = content && typeof content === 'object' ? omit(content as Record<string, unknown>, ['ref']) : content;
  const state: TabState = {
    ...base,
    components: { ...base.components, contentReservedSpace: 'span' },
    root: { ...base.root, tabIndex: base.selected || noneSelected ? 0 : -1 },
    contentReservedSpace: slot.optional(reserved as TabProps['content'], {
      renderByDefault: !base.selected && !base.iconOnly && reserveSelectedTabSpace,
      defaultProps: { children: props.children },
      elementType: 'span',
    }),
    appearance,
    size,
  };
  useTabStyles_unstable(state);
  return renderTab_unstable(state);
});
RovingTab.displayName = 'RovingTab';

/** The arrow, Home and End keys on a tab list: the focus moves to another enabled tab. */
function moveFocus(e: KeyboardEvent<HTMLDivElement>, vertical: boolean): void {
  const [back, forward] = vertical ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight'];
  if (![back, forward, 'Home', 'End'].includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
  const list = e.currentTarget;
  const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]')].filter(
    (t) => t.closest('[role="tablist"]') === list && !t.hasAttribute('disabled') && t.getAttribute('aria-disabled') !== 'true',
  );
  if (!tabs.length) return;
  const at = tabs.indexOf(document.activeElement as HTMLElement);
  const last = tabs.length - 1;
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? last : e.key === forward ? (at + 1) % tabs.length : at <= 0 ? last : at - 1;
  e.preventDefault();
  tabs[next].focus();
}
