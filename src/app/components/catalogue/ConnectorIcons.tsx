import { makeStyles, tokens } from '@fluentui/react-components';
import type { Connector } from '../../../core/domain';
import { sortConnectors } from '../../../core/catalogue';
import { useRegistry } from '../../hooks';
import { isImageRef } from './CatalogueIcon';
import { LazyTooltip } from '../LazyTooltip';

const useStyles = makeStyles({
  row: { display: 'flex', flexWrap: 'wrap', gap: '6px', alignItems: 'center', margin: 0, padding: 0, listStyleType: 'none' },
  chip: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '28px',
    height: '28px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground2,
  },
});

/** A combination's connector icons, sorted by order; the picture comes from the connector plugin. */
export function ConnectorIcons({ connectors }: { connectors: Connector[] | undefined }) {
  const s = useStyles();
  const registry = useRegistry();
  const list = sortConnectors(connectors);
  if (list.length === 0) return null;
  return (
    <ul className={s.row} aria-label="Connectors">
      {list.map((c, i) => {
        const contributed = registry.connectors.get(c.provider);
        const name = contributed?.name ?? c.name;
        const src = contributed?.icon ?? (isImageRef(c.icon) ? c.icon : undefined);
        return (
          <li key={`${c.id}-${i}`}>
            <LazyTooltip content={name} relationship="label" withArrow>
              <span className={s.chip} tabIndex={0} role="img" aria-label={name}>
                {src ? <img src={src} alt="" width={22} height={22} /> : name.slice(0, 1).toUpperCase()}
              </span>
            </LazyTooltip>
          </li>
        );
      })}
    </ul>
  );
}
