import { Body1, Title1 } from '@fluentui/react-components';
import { ButtonLink } from '../components/catalogue/ButtonLink';

/** The 404 screen: '404', 'Page not found' and 'Back to Home' to /solutions. */
export default function NotFoundPage() {
  return (
    <section aria-labelledby="not-found-title" style={{ display: 'grid', placeItems: 'center', minHeight: '60vh', textAlign: 'center', gap: 12 }}>
      <div>
        <Title1 as="h1" id="not-found-title" style={{ fontSize: 64, lineHeight: 1 }}>
          404
        </Title1>
        <Body1 as="p" block style={{ margin: '12px 0 20px' }}>
          Page not found
        </Body1>
        {/* one link styled as a button, not a button inside a link */}
        <ButtonLink to="/solutions" appearance="primary">
          Back to Home
        </ButtonLink>
      </div>
    </section>
  );
}
