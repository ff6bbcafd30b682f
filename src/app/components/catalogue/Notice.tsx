import type { ReactNode } from 'react';
import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { Warning20Regular } from '@fluentui/react-icons/svg/warning';

const useStyles = makeStyles({
  empty: {
    display: 'grid',
    justifyItems: 'center',
    gap: '12px',
    padding: '32px 16px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground2,
    border: `1px dashed ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  error: {
    display: 'flex',
    gap: '8px',
    alignItems: 'center',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorPaletteYellowBorder1}`,
    backgroundColor: tokens.colorPaletteYellowBackground1,
    color: tokens.colorNeutralForeground1,
  },
  errorIcon: { color: tokens.colorPaletteYellowForeground2, flexShrink: 0 },
});

/** A calm empty state: a sentence and, optionally, what to do next. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.empty}>
      <Body1>{children}</Body1>
      {action}
    </div>
  );
}

export const LOAD_ERROR = 'We could not load this right now. Please refresh the page or try again in a moment.';

/**
 * A small, friendly error line (the details go to the console). Drawn like a Fluent warning
 * MessageBar, without its reflow observer (a static one-line message needs none).
 */
export function LoadError({ children = LOAD_ERROR }: { children?: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.error} role="alert">
      <Warning20Regular className={s.errorIcon} aria-hidden />
      <Body1>{children}</Body1>
    </div>
  );
}
