import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Body1, Spinner } from '@fluentui/react-components';
import { useRegistry, type CombinationViewProps, RovingTab, RovingTabList } from '../../src/app';
import { authorisationSourceFrom } from '../../src/core';
import { ActivateSwitch } from './ActivateSwitch';
import { ConnectionsPane, SetupConnectionsModal } from './ConnectionsPane';
import { GuidedFirstRun } from './GuidedFirstRun';
import { RecipeTabs, useJobParam, useUserZone } from './RecipeTabs';
import { SetupFrame, useFrameStyles } from './SetupFrame';
import { StepColumn } from './StepColumn';
import { StepDetail } from './StepDetail';
import { END_TILE, connectorTiles, triggerTiles } from './tiles';
import { TEXT, connectToStartText, headerState } from './setup-rules';
import { useSetupFlow, type SetupFlow } from './use-setup-flow';
import { WorkflowPanel } from './WorkflowPanel';

/**
 * Setup screen of combinations 1, 8 and 9 (spec section 2, Combination setup screens): the
 * 'Setup Connections for Workflows' modal and the header's state, the Workflow tab (the triggers
 * under 'Connect Source', the connectors by order under 'Add Action', 'End'; the selected
 * item's detail with the workflow panel and the recipe tab group) and the Connections tab.
 */
export default function TriggerConnectorView({ combinationId }: CombinationViewProps) {
  const flow = useSetupFlow(combinationId);
  return <SetupFrame flow={flow}>{() => <TriggerConnectorBody flow={flow} />}</SetupFrame>;
}

function HeaderStatus({ flow }: { flow: SetupFlow }) {
  if (!flow.connections) return <Spinner size="tiny" label={TEXT.pleaseWait} />;
  const state = headerState(flow.authorised, flow.status, flow.missing, !!flow.running);
  if (state === 'toggle') return <ActivateSwitch flow={flow} />;
  if (state === 'connect-to-start') return <Body1 role="status">{connectToStartText(flow.missing)}</Body1>;
  return <Body1 role="status">{state === 'connect-first' ? TEXT.connectFirst : TEXT.loadingEnvironment}</Body1>;
}

function TriggerConnectorBody({ flow }: { flow: SetupFlow }) {
  const s = useFrameStyles();
  const registry = useRegistry();
  const source = useMemo(() => authorisationSourceFrom(registry), [registry]);
  const zone = useUserZone();
  const [, openJob] = useJobParam();
  const [topTab, setTopTab] = useState<'workflow' | 'connections'>('workflow');
  const combination = flow.combination!;
  const ctx = {
    combination,
    engine: flow.engine,
    connections: flow.connections,
    source,
    recipeName: flow.record?.name ?? flow.engine?.name,
    health: flow.triggerHealth,
  };
  const triggers = triggerTiles(ctx);
  const actions = connectorTiles(ctx, 'trigger-connector');
  const all = [...triggers, ...actions];
  const [selected, setSelected] = useState<string | undefined>(all[0]?.tile.key);
  const item = all.find((t) => t.tile.key === selected)?.item;
  const connectors = combination.connectors ?? [];
  const [params] = useSearchParams();

  return (
    <div className={s.root}>
      <div className={s.header}>
        <SetupConnectionsModal connectors={connectors} connections={flow.connections} onChanged={flow.refreshConnections} />
        <div className={s.status} aria-live="polite">
          <HeaderStatus flow={flow} />
        </div>
      </div>
      <GuidedFirstRun flow={flow} highlighted={params.get('guided') === 'sample-data'} />
      <RovingTabList className={s.tabs} selectedValue={topTab} onTabSelect={(_, d) => setTopTab(d.value as 'workflow' | 'connections')} aria-label="Setup">
        <RovingTab value="workflow" id="setup-workflow-tab">
          Workflow
        </RovingTab>
        <RovingTab value="connections" id="setup-connections-tab">
          Connections
        </RovingTab>
      </RovingTabList>
      {topTab === 'workflow' ? (
        <div className={s.columns} role="tabpanel" aria-labelledby="setup-workflow-tab">
          <StepColumn
            label="Workflow steps"
            groups={[
              { heading: 'Connect Source', tiles: triggers.map((t) => t.tile) },
              { heading: 'Add Action', tiles: [...actions.map((t) => t.tile), END_TILE.tile] },
            ]}
            selected={selected}
            onSelect={setSelected}
          />
          <div className={s.detail}>
            <RecipeTabs
              flow={flow}
              connectors={connectors}
              idPrefix="tc"
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
      ) : (
        <div role="tabpanel" aria-labelledby="setup-connections-tab">
          <ConnectionsPane connectors={connectors} connections={flow.connections} idPrefix="setup-conn" onChanged={flow.refreshConnections} />
        </div>
      )}
    </div>
  );
}
