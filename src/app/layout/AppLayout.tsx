import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { NavLink, Link as RouterLink } from 'react-router-dom';
import {
  Badge,
  Breadcrumb,
  BreadcrumbButton,
  BreadcrumbDivider,
  BreadcrumbItem,
  Button,
  Title3,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AppsList24Regular, Person24Regular, SignOut24Regular } from '@fluentui/react-icons';
import { Fragment } from 'react';
import * as T from '../../core/tokens';
import type { UserProfile } from '../../core/domain';
import { useApi, useEventBus, useObservable, useService, useSession, useSessionState } from '../hooks';
import type { Breadcrumbs } from '../services/breadcrumbs';
import { Logo } from './Logo';
import { useInAppLink } from '../components/useInAppLink';
import { FeedbackTab } from './FeedbackTab';

export const BETA_TOOLTIP =
  'The platform is in Beta Testing mode. Please share your feedback with us via the Feedback tab on the right.';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    gridTemplateColumns: '232px 1fr',
    minHeight: '100vh',
    backgroundColor: tokens.colorNeutralBackground2,
    '@media (max-width: 768px)': { gridTemplateColumns: '1fr', gridTemplateRows: 'auto 1fr' },
  },
  nav: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    padding: '20px 12px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 768px)': {
      flexDirection: 'row',
      alignItems: 'center',
      flexWrap: 'wrap',
      padding: '8px 12px',
      borderRight: 'none',
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    },
  },
  logo: { padding: '0 8px 20px', '@media (max-width: 768px)': { padding: '0 8px 0 0' } },
  navLink: {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1 },
  spacer: { flexGrow: 1 },
  main: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '16px',
    padding: '16px 64px 8px 32px',
    '@media (max-width: 768px)': { padding: '12px 16px 4px' },
  },
  greeting: { display: 'flex', alignItems: 'center', gap: '12px' },
  // the right gutter keeps the Feedback tab off the content
  content: { padding: '8px 64px 32px 32px', '@media (max-width: 768px)': { padding: '8px 16px 72px' } },
});

/** An earlier crumb: one element, a link styled as a breadcrumb button, that cuts the trail back. */
function CrumbLink({ to, onFollow, children }: { to: string; onFollow: () => void; children: ReactNode }) {
  const link = useInAppLink(to);
  return (
    <BreadcrumbButton
      as="a"
      href={link.href}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onFollow();
        link.onClick(e);
      }}
    >
      {children}
    </BreadcrumbButton>
  );
}

function BreadcrumbTrail() {
  const crumbs = useService<Breadcrumbs>(T.Breadcrumbs);
  const trail = useObservable(crumbs.trail$, crumbs.trail);
  return (
    <Breadcrumb aria-label="Breadcrumb">
      {trail.map((c, i) => (
        <Fragment key={c.path}>
          <BreadcrumbItem>
            {i === trail.length - 1 ? (
              <BreadcrumbButton current>{c.label}</BreadcrumbButton>
            ) : (
              <CrumbLink to={c.path} onFollow={() => crumbs.cutTo(i)}>
                {c.label}
              </CrumbLink>
            )}
          </BreadcrumbItem>
          {i < trail.length - 1 && <BreadcrumbDivider />}
        </Fragment>
      ))}
    </Breadcrumb>
  );
}

/** The user's display name, from the profile call, refreshed when the account is saved. */
function useUserName(): string {
  const api = useApi();
  const bus = useEventBus();
  const { userId } = useSessionState();
  const [name, setName] = useState('');
  useEffect(() => {
    if (!userId) return;
    let live = true;
    api
      .get<UserProfile>(`/api/platform/users/${userId}/`)
      .then((p) => live && setName(p.Name ?? ''))
      .catch((e) => console.log(e));
    const sub = bus.on('profile/updated').subscribe((p) => setName(p.name));
    return () => {
      live = false;
      sub.unsubscribe();
    };
  }, [api, bus, userId]);
  return name;
}

/** Left navigation, header with breadcrumb, greeting and Beta badge, and the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const s = useStyles();
  const session = useSession();
  const name = useUserName();
  const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? `${s.navLink} ${s.active}` : s.navLink);
  return (
    <div className={s.root}>
      <nav className={s.nav} aria-label="Main">
        <RouterLink to="/home" aria-label="Home" className={s.logo}>
          <Logo />
        </RouterLink>
        <NavLink to="/solutions" className={navClass}>
          <AppsList24Regular /> Solutions
        </NavLink>
        <NavLink to="/my-account" className={navClass}>
          <Person24Regular /> My account
        </NavLink>
        <div className={s.spacer} />
        <Button appearance="subtle" icon={<SignOut24Regular />} onClick={() => session.logout()} style={{ justifyContent: 'flex-start' }}>
          Log out
        </Button>
      </nav>
      <div className={s.main}>
        <header className={s.header}>
          <div>
            <BreadcrumbTrail />
            <div className={s.greeting}>
              <Title3 as="h2">Welcome {name}</Title3>
              <Tooltip content={BETA_TOOLTIP} relationship="description" withArrow>
                <Badge appearance="tint" color="brand" tabIndex={0} role="note" aria-label="Beta">
                  Beta
                </Badge>
              </Tooltip>
            </div>
          </div>
        </header>
        <main className={s.content}>{children}</main>
      </div>
      <FeedbackTab />
    </div>
  );
}
