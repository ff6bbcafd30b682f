import { Link as RouterLink } from 'react-router-dom';
import { Body1, Button, Title1 } from '@fluentui/react-components';
import { Logo } from '../../src/app/layout/Logo';

export default function TeaserPage() {
  return (
    <main style={{ display: 'grid', justifyItems: 'center', gap: 20, padding: '64px 24px', textAlign: 'center' }}>
      <Logo size={40} />
      <Title1 as="h1">Something new is coming</Title1>
      <Body1>AI workflows for finance, operations and customer experience, ready to switch on.</Body1>
      <div style={{ display: 'flex', gap: 12 }}>
        <RouterLink to="/login"><Button>Log in</Button></RouterLink>
        <RouterLink to="/register"><Button appearance="primary">Register</Button></RouterLink>
      </div>
    </main>
  );
}
