import { forwardRef } from 'react';
import {
  renderBreadcrumb_unstable,
  useBreadcrumbBase_unstable,
  useBreadcrumbContextValues_unstable,
  useBreadcrumbStyles_unstable,
  type BreadcrumbProps,
  type BreadcrumbState,
} from '@fluentui/react-breadcrumb';

/**
 * Fluent's Breadcrumb in its default `focusMode="tab"` (every crumb a Tab stop), built from the
 * hooks Fluent composes it of, without its arrow-key behaviour hook: Fluent's Breadcrumb calls
 * `useArrowNavigationGroup` even in tab mode and only drops its attributes afterwards, which
 * makes Tabster (about 17 KB gzip) part of every signed-in page's first load (issue 7 'Speed').
 * Same state, styles and markup as `<Breadcrumb focusMode="tab">`
 * (tests/component/shell/tab-breadcrumb.test.tsx compares them).
 */
export const TabBreadcrumb = forwardRef<HTMLElement, Omit<BreadcrumbProps, 'focusMode'>>((props, ref) => {
  const state: BreadcrumbState = { ...useBreadcrumbBase_unstable(props, ref), size: props.size ?? 'medium' };
  const contextValues = useBreadcrumbContextValues_unstable(state);
  useBreadcrumbStyles_unstable(state);
  return renderBreadcrumb_unstable(state, contextValues);
});
TabBreadcrumb.displayName = 'TabBreadcrumb';
