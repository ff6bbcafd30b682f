import { Body1, Card, CardFooter, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add24Regular } from '@fluentui/react-icons/svg/add';
import { ButtonLink } from './ButtonLink';
import type { Combination } from '../../../core/domain';
import { IconTile } from './CatalogueIcon';

/**
 * Where '+ New Combination / Get Started' leads: the combinations of the workflow whose catalogue
 * entry is marked `new_combination_target` (spec section 9: 10004, Invoice Data Extraction),
 * where the user picks one to set up; the solutions list when no entry is marked.
 */
export function newCombinationPath(combinations: Combination[] | undefined): string {
  const target = combinations?.find((c) => c.new_combination_target && c.workflow_id);
  return target ? `/solutions/combinations/${target.workflow_id}` : '/solutions';
}

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '20px',
    height: '100%',
    boxSizing: 'border-box',
    border: `1px dashed ${tokens.colorBrandStroke2}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  name: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  footer: { marginTop: 'auto' },
});

export function NewCombinationCard({ combinations }: { combinations?: Combination[] }) {
  const s = useStyles();
  return (
    <Card className={s.card} aria-label="New Combination">
      <IconTile icon={Add24Regular} />
      <Text as="h3" className={s.name}>
        + New Combination
      </Text>
      <Body1>Pick a ready-made automation and set it up in a few steps.</Body1>
      <CardFooter className={s.footer}>
        <ButtonLink to={newCombinationPath(combinations)}>Get Started</ButtonLink>
      </CardFooter>
    </Card>
  );
}
