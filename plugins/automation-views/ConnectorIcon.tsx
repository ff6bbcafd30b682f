import { makeStyles, tokens } from '@fluentui/react-components';
import { useRegistry } from '../../src/app';

const useStyles = makeStyles({
  icon: { width: '28px', height: '28px', flexShrink: 0, borderRadius: tokens.borderRadiusMedium },
  blank: { width: '28px', height: '28px', flexShrink: 0, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground3 },
});

/** The icon a plugin contributed for a provider (or trigger icon key); a neutral square if none. */
export function ConnectorIcon({ provider }: { provider: string }) {
  const s = useStyles();
  const icon = useRegistry().connectors.get(provider)?.icon;
  return icon ? <img className={s.icon} src={icon} alt="" /> : <span className={s.blank} aria-hidden="true" />;
}
