import { Body1, Caption1, Card, Subtitle1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Checkmark16Regular } from '@fluentui/react-icons/svg/checkmark';
import { PLAN_TIERS } from './plans';

const useStyles = makeStyles({
  intro: { color: tokens.colorNeutralForeground2, marginBottom: tokens.spacingVerticalL, display: 'block' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 1200px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  card: { padding: '20px', gap: tokens.spacingVerticalM },
  from: { color: tokens.colorNeutralForeground3 },
  price: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700, fontWeight: tokens.fontWeightSemibold },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '8px' },
  item: { display: 'flex', gap: '8px', alignItems: 'flex-start' },
  tick: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0, marginTop: '2px' },
});

/** Plan tab: the four display-only tiers. */
export function PlanTab() {
  const s = useStyles();
  return (
    <section aria-label="Plans">
      <Body1 className={s.intro}>You are on the 30 day free trial. These are the plans available after your trial.</Body1>
      <div className={s.grid}>
        {PLAN_TIERS.map((tier) => (
          <Card key={tier.name} className={s.card} aria-label={`${tier.name} plan`}>
            <Subtitle1 as="h3" block style={{ margin: 0 }}>
              {tier.name}
            </Subtitle1>
            <div>
              <Caption1 className={s.from}>from</Caption1>
              <Text as="p" block className={s.price} style={{ margin: 0 }}>
                {tier.price}
              </Text>
            </div>
            <ul className={s.list}>
              {[...tier.limits, ...tier.features].map((line) => (
                <li key={line} className={s.item}>
                  <Checkmark16Regular className={s.tick} aria-hidden="true" />
                  <Body1>{line}</Body1>
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
    </section>
  );
}
