import type { MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router-dom';
import { Link, type LinkProps } from '@fluentui/react-components';

/** A Fluent `Link` that navigates inside the app (a real href, so open-in-new-tab still works). */
export function AppLink({ to, children, ...rest }: { to: string; children: ReactNode } & Omit<LinkProps, 'href' | 'as'>) {
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <Link {...(rest as object)} href={href} onClick={onClick}>
      {children}
    </Link>
  );
}
