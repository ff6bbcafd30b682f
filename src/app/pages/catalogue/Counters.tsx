import { Card, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import type { FluentIcon } from '@fluentui/react-icons';
import { LoadingDot } from '../../components/catalogue/LoadingDot';
import { IconTile } from '../../components/catalogue/CatalogueIcon';

const useStyles = makeStyles({
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
    gap: '16px',
    marginBottom: '20px',
    '@media (max-width: 760px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  card: { display: 'flex', flexDirection: 'row', alignItems: 'center', gap: '14px', padding: '16px 20px' },
  text: { display: 'grid', gap: '2px' },
  value: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    minHeight: tokens.lineHeightHero700,
    display: 'flex',
    alignItems: 'center',
  },
  label: { color: tokens.colorNeutralForeground2 },
});

export interface CounterProps {
  label: string;
  icon: FluentIcon;
  /** undefined while loading (a dot shows); null when it could not be loaded */
  value: number | null | undefined;
}

export function Counter({ label, icon, value }: CounterProps) {
  const s = useStyles();
  return (
    <Card className={s.card} role="group" aria-label={label}>
      <IconTile icon={icon} />
      <div className={s.text}>
        <span className={s.value}>
          {value === undefined ? <LoadingDot label={`Loading ${label}`} /> : value === null ? <span aria-label="unavailable">–</span> : value}
        </span>
        <Caption1 className={s.label}>{label}</Caption1>
      </div>
    </Card>
  );
}

export function Counters({ items }: { items: CounterProps[] }) {
  const s = useStyles();
  return (
    <section className={s.row} aria-label="Your numbers">
      {items.map((i) => (
        <Counter key={i.label} {...i} />
      ))}
    </section>
  );
}
