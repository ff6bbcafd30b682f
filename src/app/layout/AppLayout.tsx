import { useEffect, useState, type ReactNode } from 'react';
import { NavLink, Link as RouterLink, useLocation } from 'react-router-dom';
import { Badge, Button, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { AppsList24Regular } from '@fluentui/react-icons/svg/apps-list';
import { Person24Regular } from '@fluentui/react-icons/svg/person';
import { SignOut24Regular } from '@fluentui/react-icons/svg/sign-out';
import { useApi, useEventBus, useSession, useSessionState } from '../hooks';
import { loadProfile } from '../services/profile-loader';
import { Logo } from './Logo';
import { FeedbackTab } from './FeedbackTab';
import { BreadcrumbHistory, BreadcrumbTrail } from './BreadcrumbTrail';
import { SkipLink, MAIN_CONTENT_ID } from './SkipLink';
import { LazyTooltip } from '../components/LazyTooltip';

export const BETA_TOOLTIP = 'The platform is in Beta Testing mode. Please share your feedback with us via the Feedback tab on the right.';

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
  headerText: { minWidth: 0, maxWidth: '100%' },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '16px',
    padding: '16px 64px 8px 32px',
    '@media (max-width: 768px)': { padding: '12px 16px 4px' },
  },
  greeting: { display: 'flex', alignItems: 'center', gap: '12px', minWidth: 0 },
  // a long name (or a long word in it) wraps instead of widening the page
  name: { overflowWrap: 'anywhere', minWidth: 0, margin: 0 },
  // the right gutter keeps the Feedback tab off the content
  content: {
    padding: '8px 64px 32px 32px',
    minWidth: 0,
    overflowWrap: 'anywhere',
    ':focus': { outline: 'none' },
    '@media (max-width: 768px)': { padding: '8px 16px 72px' },
  },
});

/** The user's display name, from the profile call, refreshed when the account is saved. */
function useUserName(): string {
  const api = useApi();
  const bus = useEventBus();
  const { userId } = useSessionState();
  const [name, setName] = useState('');
  useEffect(() => {
    if (!userId) return;
    let live = true;
    // shared with My details when both load at once (one profile call, not two)
    loadProfile(api, userId)
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

export default AppLayout;

/** The catalogue's pages below Solutions: the Solutions nav item stays highlighted on them. */
export function isUnderSolutions(pathname: string): boolean {
  return /^\/(solutions|solution|workflow)(\/|$)/.test(pathname);
}

/** Left navigation, header with breadcrumb, greeting and Beta badge, and the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const s = useStyles();
  const session = useSession();
  const name = useUserName();
  const { pathname } = useLocation();
  const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? `${s.navLink} ${s.active}` : s.navLink);
  const solutionsActive = isUnderSolutions(pathname);
  return (
    <div className={s.root}>
      <SkipLink />
      <BreadcrumbHistory />
      <nav className={s.nav} aria-label="Main">
        {/* the name contains the visible word mark (WCAG 2.5.3, label in name) */}
        <RouterLink to="/home" aria-label="Flowmatic Home" className={s.logo}>
          <Logo />
        </RouterLink>
        <RouterLink to="/solutions" className={navClass({ isActive: solutionsActive })} aria-current={solutionsActive ? 'page' : undefined}>
          <AppsList24Regular /> Solutions
        </RouterLink>
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
          <div className={s.headerText}>
            <BreadcrumbTrail />
            <div className={s.greeting}>
              <Title3 as="p" className={s.name}>
                Welcome {name}
              </Title3>
              <LazyTooltip content={BETA_TOOLTIP} relationship="description" withArrow>
                <Badge appearance="tint" color="brand" tabIndex={0} role="note" aria-label="Beta">
                  Beta
                </Badge>
              </LazyTooltip>
            </div>
          </div>
        </header>
        <main className={s.content} id={MAIN_CONTENT_ID} tabIndex={-1}>
          {children}
        </main>
      </div>
      <FeedbackTab />
    </div>
  );
}
