import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@fluentui/react-components';
import { useInAppLink } from '../../components/useInAppLink';

/** A Fluent `Link` that navigates inside the app (a real href, so open-in-new-tab still works). */
export function AppLink({ to, children, ...rest }: { to: string; children: ReactNode } & Omit<LinkProps, 'href' | 'as'>) {
  const link = useInAppLink(to);
  return (
    <Link {...(rest as object)} href={link.href} onClick={link.onClick}>
      {children}
    </Link>
  );
}
