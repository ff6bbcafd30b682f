import { Link as RouterLink } from 'react-router-dom';
import { Badge, Body1, Caption1, Card, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { Solution } from '../../../core/domain';
import { COMING_SOON, formatLongDate } from '../../../core/catalogue';
import { IconTile, solutionIconSet } from '../../components/catalogue/CatalogueIcon';

const useStyles = makeStyles({
  link: {
    display: 'block',
    textDecoration: 'none',
    color: 'inherit',
    borderRadius: tokens.borderRadiusLarge,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  card: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '20px', height: '100%', boxSizing: 'border-box' },
  clickable: { ':hover': { boxShadow: tokens.shadow8 } },
  // dark text on a light yellow: the contrast holds (WCAG AA) where the tint badge did not
  soonBadge: {
    backgroundColor: tokens.colorPaletteYellowBackground2,
    color: tokens.colorNeutralForeground1,
    border: `1px solid ${tokens.colorPaletteYellowBorder2}`,
  },
  icons: { display: 'flex', gap: '8px', alignItems: 'center' },
  top: { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '12px' },
  name: { margin: 0, fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500, fontWeight: tokens.fontWeightSemibold },
  desc: { color: tokens.colorNeutralForeground2 },
  meta: { display: 'flex', gap: '12px', flexWrap: 'wrap', color: tokens.colorNeutralForeground2, marginTop: 'auto' },
});

/** A solution on /solutions: icon set, name, description, author, date; coming-soon ones are not links. */
export function SolutionCard({ solution }: { solution: Solution }) {
  const s = useStyles();
  const soon = solution.status === COMING_SOON;
  const author = solution.created_by?.user?.first_name;
  const body = (
    // inside the link the card is role none: Fluent's default role=group would hide its text from the link's name
    <Card className={mergeClasses(s.card, !soon && s.clickable)} role={soon ? 'group' : 'none'} aria-label={soon ? `${solution.name}, coming soon` : undefined}>
      <div className={s.top}>
        <div className={s.icons}>
          {solutionIconSet(solution.icon, solution.name).map((icon, i) => (
            <IconTile key={i} icon={icon} size={40} muted={soon} />
          ))}
        </div>
        {soon && (
          <Badge appearance="outline" shape="rounded" className={s.soonBadge}>
            Coming Soon
          </Badge>
        )}
      </div>
      <Text as="h2" className={s.name}>
        {solution.name}
      </Text>
      {solution.descrption && <Body1 className={s.desc}>{solution.descrption}</Body1>}
      <div className={s.meta}>
        {author && <Caption1>By {author}</Caption1>}
        {solution.created_time && <Caption1>{formatLongDate(solution.created_time)}</Caption1>}
      </div>
    </Card>
  );
  if (soon) return body;
  return (
    // named by its content (WCAG 2.5.3: the name holds the visible text)
    <RouterLink to={`/solution/${solution.id}`} className={s.link}>
      {body}
    </RouterLink>
  );
}
