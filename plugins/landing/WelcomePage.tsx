import { Link as RouterLink } from 'react-router-dom';
import { Body1, Card, CardHeader, Text, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentText24Regular, Megaphone24Regular } from '@fluentui/react-icons';
import { ButtonLink, Logo } from '../../src/app';

const useStyles = makeStyles({
  page: { minHeight: '100vh', background: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground1} 60%)` },
  // wraps, with a smaller gutter, on the narrowest phones (320 px) instead of widening the page
  top: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: '12px',
    padding: '20px 40px',
    '@media (max-width: 480px)': { padding: '16px' },
  },
  links: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  hero: { maxWidth: '880px', margin: '0 auto', padding: '64px 24px 32px', textAlign: 'center', display: 'grid', gap: '20px', justifyItems: 'center' },
  cards: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: '20px', maxWidth: '880px', margin: '0 auto', padding: '24px' },
  card: { textDecoration: 'none' },
});

export default function WelcomePage() {
  const s = useStyles();
  return (
    <div className={s.page}>
      <header className={s.top}>
        <Logo />
        <nav className={s.links}>
          {/* links styled as buttons: one interactive element each, not a button inside a link */}
          <ButtonLink to="/login" appearance="subtle">Log in</ButtonLink>
          <ButtonLink to="/register" appearance="outline">Sign up</ButtonLink>
        </nav>
      </header>
      <section className={s.hero}>
        <Title1 as="h1">Automate your business with AI workflows</Title1>
        <Body1>
          Connect Google Drive, Google Sheets and Xero, then run ready-made automations: invoice and document
          extraction, reconciliation, financial analysis and more. Free for 30 days.
        </Body1>
        <ButtonLink to="/register" appearance="primary" size="large">Start for free</ButtonLink>
      </section>
      <section className={s.cards} aria-label="Free tools">
        <RouterLink to="/mia" className={s.card}>
          <Card role="none">
            <CardHeader image={<Megaphone24Regular />} header={<Text weight="semibold">Press release generator</Text>} description="Mia writes a press release for your product launch." />
          </Card>
        </RouterLink>
        <RouterLink to="/hal" className={s.card}>
          <Card role="none">
            <CardHeader image={<DocumentText24Regular />} header={<Text weight="semibold">AI pitch generator</Text>} description="Hal writes a sales pitch from your website, in the voice you choose." />
          </Card>
        </RouterLink>
      </section>
    </div>
  );
}
