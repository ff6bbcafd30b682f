import { Body1, MessageBar, MessageBarBody, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { Panel } from '../../src/app';
import { ConnectorIcon } from './ConnectorIcon';
import { RunForm } from './RunForm';
import { StepSettings } from './StepSettings';
import { TargetPicker, type TargetKind } from './TargetPicker';
import { TEXT, TILE_TEXT, type EngineStep, type TileStatus } from './setup-rules';

/** What the right column shows for a selected tile. */
export interface SelectedItem {
  group: 'trigger' | 'action';
  title: string;
  icon?: string;
  provider: string;
  status?: TileStatus;
  /** the engine steps this item stands for */
  steps: EngineStep[];
}

const useStyles = makeStyles({
  card: { padding: '16px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '10px', minWidth: 0 },
  head: { display: 'flex', gap: '10px', alignItems: 'center' },
  title: { margin: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground2 },
  list: { margin: 0, paddingLeft: '20px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4px' },
});

const NOT_CONNECTED = "Connect this account in the 'Connections' tab (or 'Setup Connections for Workflows'); the steps that need it cannot run until then.";

/** Which of the recipe's Google targets an item stands for: the Drive trigger's folder, a Sheets step's spreadsheet. */
function targetKindOf(item: SelectedItem): TargetKind | undefined {
  if (item.steps.some((st) => st.kind === 'trigger' && st.provider === 'google_drive' && st.action === 'new_file_in_folder' && st.installed)) return 'folder';
  if (item.steps.some((st) => st.kind === 'action' && st.provider === 'google_sheets' && st.installed)) return 'spreadsheet';
  return undefined;
}

/**
 * The detail of the selected trigger or connector: what it does in this recipe, its status,
 * 'Connector not found.' for a step the engine has not installed, the Drive folder the trigger
 * watches or the Sheet a step writes (with a picker for another), each typed step's settings
 * (editable while the workflow is stopped), and for a manual upload
 * trigger of a running recipe the form that runs it.
 */
export function StepDetail({
  item,
  recipeId,
  running,
  onQueued,
}: {
  item: SelectedItem | undefined;
  recipeId: number | undefined;
  running: boolean | undefined;
  onQueued(jobId: string): void;
}) {
  const s = useStyles();
  // settings saved here, by recipe and step, until the recipe is read again
  const [savedSettings, setSavedSettings] = useState<Record<string, Record<string, unknown>>>({});
  if (!item) return null;
  const missing = item.steps.filter((st) => !st.installed);
  const uploadTrigger = item.group === 'trigger' && item.provider === 'manual_upload' && missing.length === 0;
  const target = targetKindOf(item);
  return (
    <Panel className={s.card} aria-labelledby="step-detail-title">
      <div className={s.head}>
        {item.icon && <ConnectorIcon provider={item.icon} />}
        <Subtitle2 as="h3" id="step-detail-title" className={s.title}>
          {item.title}
        </Subtitle2>
      </div>
      {item.status && <Body1>Status: {TILE_TEXT[item.status]}</Body1>}
      {missing.length > 0 && (
        <MessageBar layout="multiline" intent="error">
          <MessageBarBody>
            {TEXT.connectorNotFound} This workflow needs {missing.map((m) => `${m.provider}:${m.action}`).join(', ')}, which is not installed yet, so it cannot
            run.
          </MessageBarBody>
        </MessageBar>
      )}
      {item.status === 'not-connected' && <Body1 className={s.muted}>{NOT_CONNECTED}</Body1>}
      {item.steps.length > 0 && (
        <>
          <Body1 className={s.muted}>{item.group === 'trigger' ? 'Starts the workflow:' : 'Steps in this workflow:'}</Body1>
          <ul className={s.list}>
            {item.steps.map((st) => (
              <li key={st.index}>
                <Body1>{st.name}</Body1>
                {st.settings && (
                  <div data-testid={`step-settings-${st.index}`}>
                    <StepSettings
                      recipeId={recipeId}
                      stepIndex={st.index}
                      schema={st.settings.schema}
                      values={savedSettings[`${recipeId}:${st.index}`] ?? st.settings.values}
                      running={running}
                      onSaved={(values) => setSavedSettings((all) => ({ ...all, [`${recipeId}:${st.index}`]: values }))}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {target && recipeId !== undefined && <TargetPicker recipeId={recipeId} kind={target} />}
      {uploadTrigger && recipeId !== undefined && running && (
        <RunForm recipeId={recipeId} acceptsText={item.steps.some((st) => st.action === 'text_submitted')} onQueued={onQueued} />
      )}
      {uploadTrigger && running === false && <Body1 className={s.muted}>Start the workflow to run it with a file.</Body1>}
    </Panel>
  );
}
