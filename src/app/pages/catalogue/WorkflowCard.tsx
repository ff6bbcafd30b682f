import { useId } from 'react';
import { Badge, Body1, Card, CardFooter, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { Workflow } from '../../../core/domain';
import { isComingSoonWorkflow } from '../../../core/catalogue';
import { ButtonLink } from '../../components/catalogue/ButtonLink';
import { IconTile, workflowIconFor } from '../../components/catalogue/CatalogueIcon';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '20px', height: '100%', boxSizing: 'border-box' },
  top: { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '12px' },
  name: { margin: 0, fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, fontWeight: tokens.fontWeightSemibold },
  desc: { color: tokens.colorNeutralForeground2 },
  footer: { marginTop: 'auto' },
});

/** A workflow on /solution/{id}: icon by name, Coming Soon badge, 'Combinations' link. */
export function WorkflowCard({ workflow }: { workflow: Workflow }) {
  const s = useStyles();
  const titleId = useId();
  const soon = isComingSoonWorkflow(workflow);
  return (
    <Card className={s.card} aria-labelledby={titleId}>
      <div className={s.top}>
        <IconTile icon={workflowIconFor(workflow.name)} muted={soon} />
        {soon && (
          <Badge appearance="tint" color="warning" shape="rounded">
            Coming Soon
          </Badge>
        )}
      </div>
      <Text as="h3" id={titleId} className={s.name}>
        {workflow.name}
      </Text>
      {workflow.descrption && <Body1 className={s.desc}>{workflow.descrption}</Body1>}
      <CardFooter className={s.footer}>
        <ButtonLink
          to={`/solutions/combinations/${workflow.id}`}
          appearance={soon ? 'secondary' : 'primary'}
          aria-label={`Combinations: ${workflow.name}`}
        >
          Combinations
        </ButtonLink>
      </CardFooter>
    </Card>
  );
}
