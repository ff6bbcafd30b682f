import { Caption1, Subtitle2, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ConnectorIcon } from './ConnectorIcon';
import type { TileStatus } from './setup-rules';
import { TILE_TEXT } from './setup-rules';

/** One tile of the left column: a trigger, a connector or 'End'. */
export interface StepTile {
  /** unique, also the DOM id of the tile ('wf-conn-{index}' in the basic view) */
  key: string;
  group: 'trigger' | 'action' | 'end';
  /** icon key: a provider or a trigger icon */
  icon?: string;
  title: string;
  /** omitted for 'End' and where the screen shows no status */
  status?: TileStatus;
}

const useStyles = makeStyles({
  col: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', alignContent: 'start', minWidth: 0 },
  heading: { margin: '4px 0 0' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '6px' },
  tile: {
    display: 'flex',
    gap: '10px',
    alignItems: 'center',
    width: '100%',
    minWidth: 0,
    textAlign: 'left',
    padding: '8px 10px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: 'inherit',
    font: 'inherit',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  selected: { border: `2px solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  text: { display: 'grid', minWidth: 0 },
  title: { overflowWrap: 'anywhere' },
  connected: { color: tokens.colorPaletteGreenForeground1 },
  notConnected: { color: tokens.colorNeutralForeground3 },
  wait: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  notFound: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  notWorking: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  end: {
    padding: '8px 10px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
    color: tokens.colorNeutralForeground2,
  },
});

function statusClass(s: ReturnType<typeof useStyles>, status: TileStatus): string {
  return { connected: s.connected, 'not-connected': s.notConnected, 'please-wait': s.wait, 'not-found': s.notFound, 'not-working': s.notWorking }[status];
}

/**
 * The left column of a setup screen: groups of tiles (e.g. 'Connect Source' and 'Add Action',
 * or 'Action'), each tile a button that selects it, ending with the 'End' tile.
 */
export function StepColumn({
  groups,
  selected,
  onSelect,
  label,
}: {
  groups: Array<{ heading: string; tiles: StepTile[] }>;
  selected: string | undefined;
  onSelect(key: string): void;
  label: string;
}) {
  const s = useStyles();
  return (
    <nav className={s.col} aria-label={label}>
      {groups.map((g) => (
        <div key={g.heading} className={s.col}>
          <Subtitle2 as="h3" className={s.heading}>
            {g.heading}
          </Subtitle2>
          <ul className={s.list}>
            {g.tiles.map((t) =>
              t.group === 'end' ? (
                <li key={t.key} id={t.key} className={s.end}>
                  {t.title}
                </li>
              ) : (
                <li key={t.key}>
                  <button
                    type="button"
                    id={t.key}
                    className={mergeClasses(s.tile, selected === t.key && s.selected)}
                    aria-current={selected === t.key ? 'step' : undefined}
                    onClick={() => onSelect(t.key)}
                  >
                    {t.icon && <ConnectorIcon provider={t.icon} />}
                    <span className={s.text}>
                      <span className={s.title}>{t.title}</span>
                      {t.status && <Caption1 className={statusClass(s, t.status)}>{TILE_TEXT[t.status]}</Caption1>}
                    </span>
                  </button>
                </li>
              ),
            )}
          </ul>
        </div>
      ))}
    </nav>
  );
}
