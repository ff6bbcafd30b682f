import { Badge, Body1, Card, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { Workflow } from '../../../core/domain';
import { isComingSoonWorkflow } from '../../../core/catalogue';
import { IconTile, workflowIconFor } from '../../components/catalogue/CatalogueIcon';
import { useInAppLink } from '../../components/useInAppLink';

const useStyles = makeStyles({
  link: {
    display: 'block',
    height: '100%',
    textDecoration: 'none',
    color: 'inherit',
    borderRadius: tokens.borderRadiusLarge,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
    ':hover .fui-Card': { boxShadow: tokens.shadow8 },
  },
  card: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '20px', height: '100%', boxSizing: 'border-box' },
  top: { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '12px' },
  name: { margin: 0, fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, fontWeight: tokens.fontWeightSemibold },
  desc: { color: tokens.colorNeutralForeground2 },
  // dark text on a light yellow: the contrast holds (WCAG AA) where the tint badge did not
  soonBadge: { backgroundColor: tokens.colorPaletteYellowBackground2, color: tokens.colorNeutralForeground1, border: `1px solid ${tokens.colorPaletteYellowBorder2}` },
  // the card's call to action: styled text inside the one link, not a second interactive element
  action: {
    marginTop: 'auto',
    alignSelf: 'flex-start',
    padding: '5px 12px',
    borderRadius: tokens.borderRadiusMedium,
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  actionSoon: {
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
  },
});

/**
 * A workflow on /solution/{id}: the whole card is the one link to its combinations (spec
 * section 2); its icon (by name when coming soon), Coming Soon badge and a 'Combinations' label.
 */
export function WorkflowCard({ workflow }: { workflow: Workflow }) {
  const s = useStyles();
  const soon = isComingSoonWorkflow(workflow);
  const link = useInAppLink(`/solutions/combinations/${workflow.id}`);
  return (
    <a href={link.href} onClick={link.onClick} className={s.link} data-workflow-id={workflow.id}>
      {/* role none: Fluent's default role=group would hide the card's text from the link's name */}
      <Card className={s.card} role="none">
        <div className={s.top}>
          <IconTile icon={workflowIconFor(workflow.icon, workflow.name)} muted={soon} />
          {soon && (
            <Badge appearance="outline" shape="rounded" className={s.soonBadge}>
              Coming Soon
            </Badge>
          )}
        </div>
        <Text as="h3" className={s.name}>
          {workflow.name}
        </Text>
        {workflow.descrption && <Body1 className={s.desc}>{workflow.descrption}</Body1>}
        <span className={mergeClasses(s.action, soon && s.actionSoon)}>Combinations</span>
      </Card>
    </a>
  );
}
