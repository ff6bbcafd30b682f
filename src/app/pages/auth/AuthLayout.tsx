import type { ReactNode } from 'react';
import { Body1, Caption1, Title1, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router-dom';
import * as T from '../../tokens';
import type { Clock } from '../../container';
import { useService } from '../../hooks';
import { Logo } from '../../layout/Logo';
import { PromoArt } from './PromoArt';

const useStyles = makeStyles({
  split: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
    minHeight: '100vh',
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 960px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  formSide: { display: 'flex', flexDirection: 'column', minHeight: '100vh', padding: '28px 32px 20px' },
  formArea: {
    flexGrow: 1,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: '32px 0',
  },
  formInner: { width: '100%', maxWidth: '400px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  subtitle: { color: tokens.colorNeutralForeground2 },
  footer: { color: tokens.colorNeutralForeground3, display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: '8px' },
  promo: {
    margin: '16px',
    borderRadius: '24px',
    padding: '48px',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    gap: '32px',
    color: '#ffffff',
    backgroundImage:
      'radial-gradient(circle at 88% 12%, rgba(255,255,255,0.12) 0, rgba(255,255,255,0.12) 90px, transparent 91px), radial-gradient(circle at 6% 94%, rgba(255,255,255,0.08) 0, rgba(255,255,255,0.08) 120px, transparent 121px), linear-gradient(145deg, #0f6cbd 0%, #3b3fc9 55%, #6b2fd1 100%)',
    overflow: 'hidden',
    '@media (max-width: 960px)': { display: 'none' },
  },
  promoText: { maxWidth: '460px' },
  promoTitle: { color: '#ffffff', display: 'block', marginBottom: '12px' },
  promoBody: { color: 'rgba(255,255,255,0.85)', fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
  centered: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    padding: '28px 16px 20px',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    width: '100%',
    maxWidth: '440px',
    boxSizing: 'border-box',
    margin: 'auto 0',
    padding: '36px 32px',
    '@media (max-width: 480px)': { padding: '28px 20px' },
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  logoRow: { marginBottom: '24px' },
});

/** The copyright line with the current year (from the Clock service, so tests can pin it). */
export function Copyright() {
  const clock = useService<Clock>(T.Clock);
  const year = new Date(clock.now()).getFullYear();
  return <>© {year} Flowmatic. All rights reserved.</>;
}

export function AuthHeading({ title, subtitle, icon }: { title: string; subtitle?: ReactNode; icon?: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.heading}>
      {icon}
      <Title1 as="h1" style={{ margin: 0 }}>
        {title}
      </Title1>
      {subtitle && <Body1 className={s.subtitle}>{subtitle}</Body1>}
    </div>
  );
}

/** Login and Register: the form on the left, the promo picture on the right, a footer below the form. */
export function AuthSplitLayout({ children }: { children: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.split}>
      <div className={s.formSide}>
        <RouterLink to="/welcome" aria-label="Flowmatic home" style={{ textDecoration: 'none', alignSelf: 'flex-start' }}>
          <Logo />
        </RouterLink>
        <main className={s.formArea}>
          <div className={s.formInner}>{children}</div>
        </main>
        <footer className={s.footer}>
          <Caption1>
            <Copyright />
          </Caption1>
          <Caption1>Made for teams that automate.</Caption1>
        </footer>
      </div>
      <aside className={s.promo} aria-label="About Flowmatic">
        <PromoArt />
        <div className={s.promoText}>
          <Title3 as="p" className={s.promoTitle}>
            Automate the busywork.
          </Title3>
          <p className={s.promoBody} style={{ margin: 0 }}>
            Connect Google Drive, Google Sheets and Xero, then let pre-built AI workflows read your invoices, reconcile your orders and report on your finances.
          </p>
        </div>
      </aside>
    </div>
  );
}

/** A single centred card (password reset). */
export function AuthCardLayout({ children }: { children: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.centered}>
      <RouterLink to="/login" aria-label="Flowmatic login" className={s.logoRow} style={{ textDecoration: 'none' }}>
        <Logo />
      </RouterLink>
      <main className={s.card}>{children}</main>
      <footer style={{ marginTop: 24, color: tokens.colorNeutralForeground3 }}>
        <Caption1>
          <Copyright />
        </Caption1>
      </footer>
    </div>
  );
}
