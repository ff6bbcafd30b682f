import { Link as RouterLink } from 'react-router-dom';
import { Body1, Button, Title1 } from '@fluentui/react-components';

/** The 404 screen: '404', 'Page not found' and 'Back to Home' to /solutions. */
export default function NotFoundPage() {
  return (
    <main style={{ display: 'grid', placeItems: 'center', minHeight: '60vh', textAlign: 'center', gap: 12 }}>
      <div>
        <Title1 as="h1" style={{ fontSize: 64, lineHeight: 1 }}>404</Title1>
        <Body1 as="p" block style={{ margin: '12px 0 20px' }}>Page not found</Body1>
        <RouterLink to="/solutions">
          <Button appearance="primary">Back to Home</Button>
        </RouterLink>
      </div>
    </main>
  );
}
