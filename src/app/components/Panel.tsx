import type { HTMLAttributes } from 'react';
import { makeResetStyles, mergeClasses, tokens } from '@fluentui/react-components';

/**
 * Fluent's Card in its default look (appearance 'filled', size 'medium', vertical), drawn with the
 * same tokens: the Card's own styles (react-card useCardStyles: reset + sizeMedium + filled), with
 * the Card's 1px border kept on an ::after layer as Card does, so a className's padding or grid
 * lays out exactly as on a Card.
 */
const usePanelStyles = makeResetStyles({
  overflow: 'hidden',
  borderRadius: tokens.borderRadiusMedium,
  padding: '12px',
  gap: '12px',
  display: 'flex',
  flexDirection: 'column',
  position: 'relative',
  boxSizing: 'border-box',
  color: tokens.colorNeutralForeground1,
  backgroundColor: tokens.colorNeutralBackground1,
  boxShadow: tokens.shadow4,
  '::after': {
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    bottom: 0,
    content: '""',
    pointerEvents: 'none',
    borderStyle: 'solid',
    borderWidth: tokens.strokeWidthThin,
    borderColor: tokens.colorTransparentStroke,
    borderRadius: tokens.borderRadiusMedium,
  },
});

export type PanelProps = HTMLAttributes<HTMLDivElement>;

/**
 * A section surface that looks like Fluent's default Card, for the places that use a Card only as a
 * plain, non-interactive surface (issue 7, 'Speed'): Card brings its selection, focus-group
 * (tabster) and slot code, about 11 KB gzip, none of which such a surface uses. Keep Card where it
 * is clickable, selectable or focusable.
 *
 * Like Card, the root is a `div` with role 'group' (named by aria-labelledby when given), so
 * assistive technology reads the same as before; pass another role to change it.
 */
export function Panel({ className, role = 'group', ...rest }: PanelProps) {
  const base = usePanelStyles();
  return <div role={role} {...rest} className={mergeClasses(base, className)} />;
}
