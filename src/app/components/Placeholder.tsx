import { Title2 } from '@fluentui/react-components';

/**
 * A plain page title for screens that later issues build. A section, not a second <main>: it
 * renders inside the layout's main landmark.
 */
export function Placeholder({ title }: { title: string }) {
  return (
    <section style={{ padding: 24 }} aria-label={title}>
      <Title2 as="h1">{title}</Title2>
    </section>
  );
}
