import { Link as RouterLink } from 'react-router-dom';
import { Body1, Card, CardHeader, Text, Title1, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentText24Regular } from '@fluentui/react-icons/svg/document-text';
import { Megaphone24Regular } from '@fluentui/react-icons/svg/megaphone';
import { Play24Regular } from '@fluentui/react-icons/svg/play';
import { ButtonLink, Logo } from '../../src/app';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    background: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground1} 60%)`,
  },
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
  hero: {
    maxWidth: '880px',
    margin: '0 auto',
    padding: '64px 24px 32px',
    textAlign: 'center',
    display: 'grid',
    gap: '20px',
    justifyItems: 'center',
  },
  ctas: {
    display: 'flex',
    gap: '12px',
    flexWrap: 'wrap',
    justifyContent: 'center',
  },
  tools: { maxWidth: '880px', margin: '0 auto', padding: '24px' },
  toolsTitle: { display: 'block', textAlign: 'center', marginBottom: '16px' },
  // one column on the narrowest phones: a 280 px minimum would overflow 320 px less the gutters
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(280px, 100%), 1fr))',
    gap: '20px',
  },
  card: { textDecoration: 'none' },
});

/** The public generators (spec section 2): each card is one link to its page. */
const FREE_TOOLS = [
  { to: '/mia', icon: <Megaphone24Regular />, name: 'Press release generator', description: 'Mia writes a press release for your product launch.' },
  {
    to: '/hal',
    icon: <DocumentText24Regular />,
    name: 'AI pitch generator',
    description: 'Hal writes a sales pitch from your website, in the voice you choose.',
  },
];

/** /welcome, the landing page: what the product does, 'Start for free', a tour, and the free tools. */
export default function WelcomePage() {
  const s = useStyles();
  return (
    <div className={s.page}>
      <header className={s.top}>
        <Logo />
        <nav className={s.links}>
          {/* links styled as buttons: one interactive element each, not a button inside a link */}
          <ButtonLink to="/login" appearance="subtle">
            Log in
          </ButtonLink>
          <ButtonLink to="/register" appearance="outline">
            Sign up
          </ButtonLink>
        </nav>
      </header>
      <main>
        <section className={s.hero} aria-labelledby="welcome-title">
          <Title1 as="h1" id="welcome-title" align="center">
            Automate your business with AI workflows
          </Title1>
          <Body1 align="center">
            Connect Google Drive, Google Sheets and Xero, then run ready-made automations: invoice and document extraction, reconciliation, financial analysis
            and more. Free for 30 days.
          </Body1>
          <div className={s.ctas}>
            <ButtonLink to="/register" appearance="primary" size="large">
              Start for free
            </ButtonLink>
            <ButtonLink to="/teaser" appearance="transparent" size="large" icon={<Play24Regular />}>
              Watch the tour
            </ButtonLink>
          </div>
        </section>
        <section className={s.tools} aria-labelledby="free-tools">
          <Title3 as="h2" id="free-tools" className={s.toolsTitle}>
            Free AI tools
          </Title3>
          <div className={s.cards}>
            {FREE_TOOLS.map((tool) => (
              <RouterLink key={tool.to} to={tool.to} className={s.card}>
                <Card role="none">
                  <CardHeader image={tool.icon} header={<Text weight="semibold">{tool.name}</Text>} description={tool.description} />
                </Card>
              </RouterLink>
            ))}
          </div>
        </section>
      </main>
    </div>
  );
}
