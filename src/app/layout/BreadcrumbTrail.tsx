import { Fragment, Suspense, lazy, useEffect, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { BreadcrumbButton, BreadcrumbDivider, BreadcrumbItem, makeStyles } from '@fluentui/react-components';
import { MoreHorizontal20Regular } from '@fluentui/react-icons/svg/more-horizontal';
import * as T from '../tokens';
import { useObservable, useService } from '../hooks';
import type { Breadcrumbs, Crumb } from '../services/breadcrumbs';
import { useInAppLink } from '../components/useInAppLink';
import { ChunkBoundary } from '../components/ChunkBoundary';
import { TabBreadcrumb } from './TabBreadcrumb';

/** The overflow menu's chunk (issue 7: the menu and its positioning are not part of any first load). */
const loadOverflowMenu = () => import(/* webpackChunkName: "breadcrumb-menu" */ './BreadcrumbOverflowMenu');
const BreadcrumbOverflowMenu = lazy(loadOverflowMenu);

const useStyles = makeStyles({
  list: { '& ol': { flexWrap: 'wrap' }, minWidth: 0, maxWidth: '100%' },
  label: { maxWidth: '22ch', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'inline-block', verticalAlign: 'bottom' },
});

/** An earlier crumb: one element, a link styled as a breadcrumb button, that cuts the trail back. */
function CrumbLink({ to, onFollow, children, title }: { to: string; onFollow: () => void; children: ReactNode; title: string }) {
  const link = useInAppLink(to);
  return (
    <BreadcrumbButton
      as="a"
      href={link.href}
      title={title}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onFollow();
        link.onClick(e);
      }}
    >
      {children}
    </BreadcrumbButton>
  );
}

/**
 * The '…' crumb with the hidden middle of the trail. Until first used it is the button alone
 * (with the menu trigger's aria-haspopup); a click or ArrowDown loads the menu, which opens at
 * once, and from then on it is Fluent's Menu. Pointing at or focusing it starts the download.
 */
function OverflowCrumbs({ crumbs, onFollow }: { crumbs: Array<{ crumb: Crumb; index: number }>; onFollow: (index: number) => void }) {
  const [wanted, setWanted] = useState(false);
  const preload = () => void loadOverflowMenu().catch(() => undefined);
  const trigger = <BreadcrumbButton icon={<MoreHorizontal20Regular />} aria-label={`${crumbs.length} more breadcrumb items`} />;
  if (wanted) {
    return (
      <ChunkBoundary fallback={trigger}>
        <Suspense fallback={trigger}>
          <BreadcrumbOverflowMenu trigger={trigger} crumbs={crumbs} onFollow={onFollow} />
        </Suspense>
      </ChunkBoundary>
    );
  }
  return (
    <BreadcrumbButton
      icon={<MoreHorizontal20Regular />}
      aria-label={`${crumbs.length} more breadcrumb items`}
      aria-haspopup="menu"
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setWanted(true)}
      onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => {
        if (e.key === 'ArrowDown') {
          e.preventDefault();
          setWanted(true);
        }
      }}
    />
  );
}

/** True while the viewport is at most `px` wide. */
function useNarrow(px: number): boolean {
  const query = `(max-width: ${px}px)`;
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches);
  useEffect(() => {
    const mq = window.matchMedia?.(query);
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return narrow;
}

/**
 * Which crumbs show: all when they fit, else the first, an overflow menu with the middle ones
 * and the last `tail` (Fluent's Breadcrumb overflow pattern).
 */
export function visibleCrumbs(count: number, max: number): { head: number[]; hidden: number[]; tail: number[] } {
  const all = Array.from({ length: count }, (_, i) => i);
  if (count <= max) return { head: all, hidden: [], tail: [] };
  const tail = Math.max(1, max - 2);
  return { head: [0], hidden: all.slice(1, count - tail), tail: all.slice(count - tail) };
}

/** Tells the trail about each navigation so Back and Forward move along it. */
export function BreadcrumbHistory() {
  const crumbs = useService<Breadcrumbs>(T.Breadcrumbs);
  const location = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    // 'default' is the first entry of a freshly loaded page: it has no key of its own to remember
    crumbs.enter(location.key === 'default' ? null : location.key, type === 'POP');
  }, [crumbs, location.key, type]);
  return null;
}

/** The breadcrumb trail in the header; collapses its middle on narrow screens. */
export function BreadcrumbTrail() {
  const s = useStyles();
  const crumbs = useService<Breadcrumbs>(T.Breadcrumbs);
  const trail = useObservable(crumbs.trail$, crumbs.trail);
  const narrow = useNarrow(768);
  const { head, hidden, tail } = visibleCrumbs(trail.length, narrow ? 3 : 5);
  const item = (i: number) =>
    i === trail.length - 1 ? (
      <BreadcrumbButton current title={trail[i].label}>
        <span className={s.label}>{trail[i].label}</span>
      </BreadcrumbButton>
    ) : (
      <CrumbLink to={trail[i].path} title={trail[i].label} onFollow={() => crumbs.cutTo(i)}>
        <span className={s.label}>{trail[i].label}</span>
      </CrumbLink>
    );
  const shown: Array<number | 'more'> = hidden.length ? [...head, 'more', ...tail] : head;
  return (
    <TabBreadcrumb aria-label="Breadcrumb" className={s.list}>
      {shown.map((i, n) => (
        <Fragment key={i === 'more' ? 'more' : trail[i].path}>
          <BreadcrumbItem>
            {i === 'more' ? <OverflowCrumbs crumbs={hidden.map((h) => ({ crumb: trail[h], index: h }))} onFollow={(h) => crumbs.cutTo(h)} /> : item(i)}
          </BreadcrumbItem>
          {n < shown.length - 1 && <BreadcrumbDivider />}
        </Fragment>
      ))}
    </TabBreadcrumb>
  );
}
