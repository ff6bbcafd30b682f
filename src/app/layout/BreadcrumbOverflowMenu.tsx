import type { MouseEvent, ReactElement } from 'react';
import { Menu, MenuItemLink, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import type { Crumb } from '../services/breadcrumbs';
import { useInAppLink } from '../components/useInAppLink';

/** A hidden crumb inside the overflow menu. */
function OverflowItem({ crumb, onFollow }: { crumb: Crumb; onFollow: () => void }) {
  const link = useInAppLink(crumb.path);
  return (
    <MenuItemLink
      href={link.href}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onFollow();
        link.onClick(e);
      }}
    >
      {crumb.label}
    </MenuItemLink>
  );
}

/**
 * The breadcrumb's overflow menu with the middle crumbs (Fluent's Breadcrumb overflow pattern).
 * A chunk of its own (the menu and its positioning): only a long trail on a narrow screen shows
 * the '…' button, and the menu loads when that button is first used; it then opens at once.
 */
export default function BreadcrumbOverflowMenu({
  trigger,
  crumbs,
  onFollow,
}: {
  /** the '…' breadcrumb button */
  trigger: ReactElement;
  /** the hidden crumbs, each with its index in the trail */
  crumbs: Array<{ crumb: Crumb; index: number }>;
  onFollow: (index: number) => void;
}) {
  return (
    <Menu defaultOpen>
      <MenuTrigger disableButtonEnhancement>{trigger}</MenuTrigger>
      <MenuPopover>
        <MenuList>
          {crumbs.map(({ crumb, index }) => (
            <OverflowItem key={crumb.path} crumb={crumb} onFollow={() => onFollow(index)} />
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
