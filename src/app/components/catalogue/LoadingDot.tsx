import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  dot: {
    display: 'inline-block',
    width: '10px',
    height: '10px',
    borderRadius: '50%',
    backgroundColor: tokens.colorBrandBackground,
    animationName: {
      '0%': { opacity: 0.25, transform: 'scale(0.8)' },
      '50%': { opacity: 1, transform: 'scale(1)' },
      '100%': { opacity: 0.25, transform: 'scale(0.8)' },
    },
    animationDuration: '1.1s',
    animationIterationCount: 'infinite',
    '@media (prefers-reduced-motion: reduce)': { animationName: 'none' },
  },
});

/** The small pulsing dot a counter shows until its value is known. */
export function LoadingDot({ label }: { label: string }) {
  const s = useStyles();
  return <span className={s.dot} role="status" aria-label={label} />;
}
