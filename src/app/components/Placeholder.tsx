import { Title2 } from '@fluentui/react-components';

/** A plain page title for screens that later issues build. */
export function Placeholder({ title }: { title: string }) {
  return (
    <main style={{ padding: 24 }}>
      <Title2 as="h1">{title}</Title2>
    </main>
  );
}
