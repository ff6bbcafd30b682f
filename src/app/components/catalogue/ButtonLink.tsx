import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@fluentui/react-components';
import { useInAppLink } from '../useInAppLink';

/**
 * A Fluent button that is a real link (an <a href>, so it opens in a new tab, is announced as a
 * link and works with Enter), navigating client-side on a plain click.
 */
export function ButtonLink({
  to,
  children,
  appearance = 'primary',
  ...rest
}: { to: string; children: ReactNode } & Omit<ButtonProps, 'as' | 'href' | 'onClick'>) {
  const link = useInAppLink(to);
  return (
    <Button {...(rest as object)} as="a" href={link.href} appearance={appearance} onClick={link.onClick}>
      {children}
    </Button>
  );
}
