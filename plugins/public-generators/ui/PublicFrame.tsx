import type { MouseEvent, ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Body1, Button, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { Logo, userMessage } from '../../../src/app';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    background: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground1} 55%)`,
  },
  top: { display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: '8px', padding: '16px clamp(12px, 4vw, 40px)' },
  links: { display: 'flex', gap: '8px' },
  // one column that never grows past the screen, whatever its content's natural width
  main: {
    maxWidth: '760px',
    margin: '0 auto',
    padding: '16px clamp(12px, 4vw, 24px) 48px',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: '16px',
  },
  intro: { display: 'grid', gap: '8px', minWidth: 0 },
});

/** The frame of a public generator page: logo, log-in and sign-up links, a heading and an intro. */
export function PublicFrame({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  const s = useStyles();
  const navigate = useNavigate();
  // links that look like buttons, followed inside the app (no page load)
  const go = (path: string) => (event: MouseEvent) => {
    event.preventDefault();
    navigate(path);
  };
  return (
    <div className={s.page}>
      <header className={s.top}>
        <RouterLink to="/welcome" aria-label="Flowmatic home">
          <Logo />
        </RouterLink>
        <nav className={s.links} aria-label="Account">
          <Button as="a" href="/login" appearance="subtle" onClick={go('/login')}>
            Log in
          </Button>
          <Button as="a" href="/register" appearance="outline" onClick={go('/register')}>
            Sign up
          </Button>
        </nav>
      </header>
      <main className={s.main}>
        <div className={s.intro}>
          <Title1 as="h1">{title}</Title1>
          <Body1>{intro}</Body1>
        </div>
        {children}
      </main>
    </div>
  );
}

/** The message of a failed call (ApiError carries the server's sentence). */
export function errorMessage(error: unknown): string {
  return userMessage(error, 'Something went wrong. Please try again.');
}

/** The e-mail shape both the forms and the server's schemas accept. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
