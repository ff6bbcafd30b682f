import { Body1, Card, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { Clock24Regular } from '@fluentui/react-icons/svg/clock';

const useStyles = makeStyles({
  card: { padding: '24px', display: 'flex', flexDirection: 'row', gap: '16px', alignItems: 'flex-start' },
  icon: { color: tokens.colorBrandForeground1, flexShrink: 0, marginTop: '2px' },
  text: { display: 'grid', gap: '6px' },
  title: { margin: 0 },
});

/**
 * An honest stand-in for a view a later release builds: its title and a sentence saying so.
 * Nothing on it pretends to work.
 */
export function PlannedView({ title, kind = 'workflow' }: { title: string; kind?: 'workflow' | 'setup' }) {
  const s = useStyles();
  return (
    <Card className={s.card} role="region" aria-label={title}>
      <Clock24Regular className={s.icon} aria-hidden />
      <div className={s.text}>
        <Subtitle1 as="h2" className={s.title}>
          {title}
        </Subtitle1>
        <Body1>{kind === 'workflow' ? 'This workflow page is coming in a later release.' : 'This setup view is coming in a later release.'}</Body1>
      </div>
    </Card>
  );
}
