import type { MouseEvent } from 'react';
import { useHref, useNavigate } from 'react-router-dom';

/**
 * A real href plus a click handler that navigates inside the app: open-in-new-tab, middle-click
 * and modifier keys keep the browser's own behaviour.
 */
export function useInAppLink(to: string): { href: string; onClick: (e: MouseEvent<HTMLAnchorElement>) => void } {
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return { href, onClick };
}
