import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { PeopleTeam48Regular } from '@fluentui/react-icons/svg/people-team';
import { AccountText } from './account-form';

const useStyles = makeStyles({
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: '48px 16px',
    color: tokens.colorNeutralForeground2,
    textAlign: 'center',
  },
});

/** The 'my-team' view: only a coming-soon note. */
export function TeamTab() {
  const s = useStyles();
  return (
    <div className={s.empty}>
      <PeopleTeam48Regular aria-hidden="true" />
      <Body1>{AccountText.comingSoon}</Body1>
    </div>
  );
}
