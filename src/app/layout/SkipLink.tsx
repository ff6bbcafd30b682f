import { makeStyles, tokens } from '@fluentui/react-components';

export const MAIN_CONTENT_ID = 'main-content';

const useStyles = makeStyles({
  skip: {
    position: 'absolute',
    left: '8px',
    top: '-48px',
    zIndex: 100,
    padding: '8px 12px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForeground1,
    boxShadow: tokens.shadow8,
    ':focus': { top: '8px' },
  },
});

/** 'Skip to main content': the first stop of the keyboard, visible only when focused. */
export function SkipLink() {
  const s = useStyles();
  return (
    <a className={s.skip} href={`#${MAIN_CONTENT_ID}`}>
      Skip to main content
    </a>
  );
}
