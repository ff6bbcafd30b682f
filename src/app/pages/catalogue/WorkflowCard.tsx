import { Badge, Body1, Card, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { Workflow } from '../../../core/domain';
import { isComingSoonWorkflow } from '../../../core/catalogue';
import { IconTile, workflowIconFor } from '../../components/catalogue/CatalogueIcon';
import { useInAppLink } from '../../components/useInAppLink';
import { useRegistry } from '../../hooks';

const useStyles = makeStyles({
  // the card and, beside its link (never inside it), the link to the workflow's own page
  holder: { position: 'relative', height: '100%' },
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
  soonBadge: {
    backgroundColor: tokens.colorPaletteYellowBackground2,
    color: tokens.colorNeutralForeground1,
    border: `1px solid ${tokens.colorPaletteYellowBorder2}`,
  },
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
  // 'Open', on the card's bottom row opposite 'Combinations': a sibling of the card's link
  open: {
    position: 'absolute',
    right: '20px',
    bottom: '20px',
    padding: '4px 12px',
    borderRadius: tokens.borderRadiusMedium,
    fontWeight: tokens.fontWeightSemibold,
    textDecoration: 'none',
    color: tokens.colorBrandForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorBrandStroke1}`,
    ':hover': { backgroundColor: tokens.colorBrandBackground2 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
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
 * When a plugin registered a page for the workflow (/workflow/{id}), an 'Open' link beside the
 * card's link leads there, so that every workflow page can be reached from the catalogue.
 */
export function WorkflowCard({ workflow }: { workflow: Workflow }) {
  const s = useStyles();
  const soon = isComingSoonWorkflow(workflow);
  const link = useInAppLink(`/solutions/combinations/${workflow.id}`);
  const hasPage = useRegistry().workflowViews.get(String(workflow.id)) !== undefined;
  return (
    <div className={s.holder}>
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
      {hasPage && <OpenLink id={workflow.id} name={workflow.name} className={s.open} />}
    </div>
  );
}

function OpenLink({ id, name, className }: { id: number; name: string; className: string }) {
  const link = useInAppLink(`/workflow/${id}`);
  return (
    <a href={link.href} onClick={link.onClick} className={className} aria-label={`Open ${name}`} data-open-workflow={id}>
      Open
    </a>
  );
}
