import { Body1, Title1 } from '@fluentui/react-components';
import { Logo, ButtonLink } from '../../src/app';

/** /teaser: what is coming, with Log in and Register (each one link styled as a button). */
export default function TeaserPage() {
  return (
    <main style={{ display: 'grid', justifyItems: 'center', gap: 20, padding: '64px 24px', textAlign: 'center' }}>
      <Logo size={40} />
      <Title1 as="h1">Something new is coming</Title1>
      <Body1>AI workflows for finance, operations and customer experience, ready to switch on.</Body1>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', justifyContent: 'center' }}>
        <ButtonLink to="/login" appearance="secondary">
          Log in
        </ButtonLink>
        <ButtonLink to="/register" appearance="primary">
          Register
        </ButtonLink>
      </div>
    </main>
  );
}
