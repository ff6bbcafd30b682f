import { Link as RouterLink } from 'react-router-dom';
import { Body1, Button, Card, CardHeader, Text, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentText24Regular, Megaphone24Regular } from '@fluentui/react-icons';
import { Logo } from '../../src/app/layout/Logo';

const useStyles = makeStyles({
  page: { minHeight: '100vh', background: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground1} 60%)` },
  top: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '20px 40px' },
  links: { display: 'flex', gap: '12px' },
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
          <RouterLink to="/login"><Button appearance="subtle">Log in</Button></RouterLink>
          <RouterLink to="/register"><Button appearance="outline">Sign up</Button></RouterLink>
        </nav>
      </header>
      <section className={s.hero}>
        <Title1 as="h1">Automate your business with AI workflows</Title1>
        <Body1>
          Connect Google Drive, Google Sheets and Xero, then run ready-made automations: invoice and document
          extraction, reconciliation, financial analysis and more. Free for 30 days.
        </Body1>
        <RouterLink to="/register"><Button appearance="primary" size="large">Start for free</Button></RouterLink>
      </section>
      <section className={s.cards} aria-label="Free tools">
        <RouterLink to="/mia" className={s.card}>
          <Card>
            <CardHeader image={<Megaphone24Regular />} header={<Text weight="semibold">Press release generator</Text>} description="Mia writes a press release for your product launch." />
          </Card>
        </RouterLink>
        <RouterLink to="/hal" className={s.card}>
          <Card>
            <CardHeader image={<DocumentText24Regular />} header={<Text weight="semibold">AI pitch generator</Text>} description="Hal writes a sales pitch from your website, in the voice you choose." />
          </Card>
        </RouterLink>
      </section>
    </div>
  );
}
