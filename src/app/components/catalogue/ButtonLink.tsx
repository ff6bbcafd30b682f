import type { MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router-dom';
import { Button, type ButtonProps } from '@fluentui/react-components';

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
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <Button {...(rest as object)} as="a" href={href} appearance={appearance} onClick={onClick}>
      {children}
    </Button>
  );
}
