import { makeStyles } from '@fluentui/react-components';

/** Responsive card grids: three (or two) per row on wide screens, one on narrow ones. */
export const useGridStyles = makeStyles({
  three: {
    display: 'grid',
    gap: '20px',
    gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
    '@media (max-width: 1200px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    '@media (max-width: 760px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  two: {
    display: 'grid',
    gap: '20px',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    '@media (max-width: 900px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
});
