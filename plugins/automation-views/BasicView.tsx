import { useMemo, useState } from 'react';
import { Body1 } from '@fluentui/react-components';
import { useRegistry, type CombinationViewProps } from '../../src/app';
import { authorisationSourceFrom } from '../../src/core';
import { ActivateSwitch } from './ActivateSwitch';
import { RecipeTabs, useJobParam, useUserZone } from './RecipeTabs';
import { SetupFrame, useFrameStyles } from './SetupFrame';
import { StepColumn } from './StepColumn';
import { StepDetail } from './StepDetail';
import { END_TILE, connectorTiles } from './tiles';
import { TEXT, basicHeaderState, connectToStartText } from './setup-rules';
import { useSetupFlow, type SetupFlow } from './use-setup-flow';
import { WorkflowPanel } from './WorkflowPanel';

/**
 * Setup screen of basic variants and every other combination (spec section 2, Basic workflow
 * screen): a status area (the start/stop control once setup allows a start, 'Connect … to start'
 * while a connection its steps need is missing, 'setting up....' when it is neither ready nor
 * started, nothing when started); the 'Action' column (connectors by
 * order, the AI step showing the workflow name, the first selected, then 'End'); the workflow
 * panel with the selected connector's detail and the recipe tab group.
 */
export default function BasicView({ combinationId }: CombinationViewProps) {
  const flow = useSetupFlow(combinationId);
  return <SetupFrame flow={flow}>{() => <BasicBody flow={flow} />}</SetupFrame>;
}

function BasicStatus({ flow }: { flow: SetupFlow }) {
  const state = basicHeaderState(flow.status, flow.missing, !!flow.running);
  if (state === 'toggle') return <ActivateSwitch flow={flow} />;
  if (state === 'connect-to-start') return <Body1 role="status">{connectToStartText(flow.missing)}</Body1>;
  if (state === 'setting-up') return <Body1 role="status">{TEXT.settingUp}</Body1>;
  return null;
}

function BasicBody({ flow }: { flow: SetupFlow }) {
  const s = useFrameStyles();
  const registry = useRegistry();
  const source = useMemo(() => authorisationSourceFrom(registry), [registry]);
  const zone = useUserZone();
  const [, openJob] = useJobParam();
  const combination = flow.combination!;
  const ctx = { combination, engine: flow.engine, connections: flow.connections, source, recipeName: flow.record?.name, health: flow.triggerHealth };
  const actions = connectorTiles(ctx, 'basic');
  const [selected, setSelected] = useState<string | undefined>(actions[0]?.tile.key);
  const item = actions.find((t) => t.tile.key === selected)?.item;

  return (
    <div className={s.root}>
      <div className={s.header}>
        <div className={s.status} aria-live="polite">
          <BasicStatus flow={flow} />
        </div>
      </div>
      <div className={s.columns}>
        <StepColumn
          label="Workflow steps"
          groups={[{ heading: 'Action', tiles: [...actions.map((t) => t.tile), END_TILE.tile] }]}
          selected={selected}
          onSelect={setSelected}
        />
        <div className={s.detail} role="region" aria-label="Workflow" id={selected ? `${selected}-panel` : undefined}>
          <RecipeTabs
            flow={flow}
            connectors={combination.connectors ?? []}
            idPrefix="basic"
            recipeContent={
              <WorkflowPanel flow={flow} zone={zone}>
                <StepDetail
                  item={item}
                  recipeId={flow.record?.recipe_id}
                  running={flow.running}
                  onQueued={(id) => {
                    flow.refresh();
                    openJob(id);
                  }}
                />
              </WorkflowPanel>
            }
          />
        </div>
      </div>
    </div>
  );
}
