import { Body1, Card, CardFooter, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add24Regular } from '@fluentui/react-icons';
import { ButtonLink } from './ButtonLink';
import { IconTile } from './CatalogueIcon';

/**
 * Where '+ New Combination / Get Started' leads. Spec section 9 names 10004 the new-combination
 * link id; 10004 is the Invoice Data Extraction workflow, so the card opens that workflow's
 * combinations, where the user picks one to set up.
 */
export const NEW_COMBINATION_WORKFLOW_ID = 10004;
export const NEW_COMBINATION_PATH = `/solutions/combinations/${NEW_COMBINATION_WORKFLOW_ID}`;

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

export function NewCombinationCard() {
  const s = useStyles();
  return (
    <Card className={s.card} aria-label="New Combination">
      <IconTile icon={Add24Regular} />
      <Text as="h3" className={s.name}>
        + New Combination
      </Text>
      <Body1>Pick a ready-made automation and set it up in a few steps.</Body1>
      <CardFooter className={s.footer}>
        <ButtonLink to={NEW_COMBINATION_PATH}>Get Started</ButtonLink>
      </CardFooter>
    </Card>
  );
}
