import { Badge, Caption1, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import type { Combination, UserRecipeRecord } from '../../../core/domain';
import { Panel } from '../../components/Panel';
import { useDateTime } from '../../date-time';

const useStyles = makeStyles({
  card: { padding: '16px', display: 'grid', gap: '10px' },
  list: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '12px', rowGap: '6px', margin: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  title: { margin: 0 },
});

const SETUP_LABEL: Record<string, string> = {
  'no started': 'Not started',
  started: 'Started',
  ready: 'Ready',
  complete: 'Complete',
};

/** The sidebar's recipe status and details (spec section 2, Combination setup screens). */
export function RecipeDetails({ combination, record, loading }: { combination: Combination; record: UserRecipeRecord | undefined; loading?: boolean }) {
  const s = useStyles();
  const { dateTime } = useDateTime();
  return (
    // a plain surface, not a Card (nothing in it is a card action): Panel, without Card's code
    <Panel className={s.card} aria-labelledby="recipe-details-title">
      <Subtitle2 as="h3" id="recipe-details-title" className={s.title}>
        Recipe details
      </Subtitle2>
      <div>
        <Badge appearance="tint" color={combination.running ? 'success' : 'informative'} shape="rounded">
          {combination.running ? 'Running' : 'Not running'}
        </Badge>
      </div>
      {loading ? (
        <Caption1 className={s.muted}>Loading your recipe...</Caption1>
      ) : record ? (
        <dl className={s.list}>
          <dt className={s.term}>Recipe</dt>
          <dd className={s.value}>{record.name}</dd>
          <dt className={s.term}>Setup</dt>
          <dd className={s.value}>{SETUP_LABEL[record.status] ?? record.status}</dd>
          <dt className={s.term}>Succeeded jobs</dt>
          <dd className={s.value}>{record.job_succeeded_count ?? 0}</dd>
          <dt className={s.term}>Failed jobs</dt>
          <dd className={s.value}>{record.job_failed_count ?? 0}</dd>
          <dt className={s.term}>Updated</dt>
          <dd className={s.value}>{dateTime(record.updated_at)}</dd>
          {record.description && (
            <>
              <dt className={s.term}>About</dt>
              <dd className={s.value}>{record.description}</dd>
            </>
          )}
        </dl>
      ) : (
        <Caption1 className={s.muted}>No recipe has been set up for this combination yet.</Caption1>
      )}
    </Panel>
  );
}
