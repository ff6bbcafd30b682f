import { useRef, type ReactNode } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { Button, Caption1, MessageBar, MessageBarBody, Spinner, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { SchemaForm } from '../../forms';
import { Panel } from '../Panel';
import type { SavedConfig } from './use-saved-config';

/** A button next to "Save config" (Test, Run Workflow...). */
export interface ConfigAction {
  label: string;
  onClick(): unknown;
  disabled?: boolean;
  /** the main action of the card (filled button) */
  primary?: boolean;
}

export interface ConfigCardProps<T extends object> {
  /** the saved config (useSavedConfig) the form loads, saves and reports on */
  config: SavedConfig<T>;
  schema: object;
  uiSchema?: UiSchema;
  /** the id prefix of the form's fields */
  idPrefix: string;
  /** every change of the form (the view compares it with the saved config: unsaved changes) */
  onChange(data: Partial<T>): void;
  /** after a successful save, with the data saved */
  onSaved?(data: T): void;
  actions: ConfigAction[];
  /** shown as a spinner after the actions while one of them runs */
  busyLabel?: string;
  /** why some actions are disabled (spec 5), shown under the form */
  hint?: string | null;
  /** the outcome of the last action */
  notice?: { intent: 'success' | 'warning' | 'error'; text: ReactNode };
  title?: string;
}

const useStyles = makeStyles({
  card: { display: 'grid', gap: '12px', padding: '16px' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center', marginTop: '8px' },
  hint: { color: tokens.colorNeutralForeground3 },
});

function Bar({ intent, children }: { intent: 'success' | 'warning' | 'error'; children: ReactNode }) {
  return (
    <MessageBar intent={intent} layout="multiline">
      <MessageBarBody>{children}</MessageBarBody>
    </MessageBar>
  );
}

/**
 * The "Config" card of a combination view (spec 4 'Config save'): the rjsf form of the saved
 * config while it loads, fails or is ready, "Save config" (create, then update) with 'Config
 * Saved' for 3 seconds, the view's actions next to it, why they are disabled, and their outcome.
 */
export function ConfigCard<T extends object>({
  config,
  schema,
  uiSchema,
  idPrefix,
  onChange,
  onSaved,
  actions,
  busyLabel,
  hint,
  notice,
  title = 'Config',
}: ConfigCardProps<T>) {
  const s = useStyles();
  // rjsf's Form skips re-rendering when only functions changed (its deepEquals ignores them), so
  // the buttons inside it call the handlers of the latest render through a ref
  const latest = useRef(actions);
  latest.current = actions;

  async function save(data: T) {
    if (await config.save(data)) onSaved?.(data);
  }

  return (
    // a plain surface (the form is its only control): Panel, without Card's code
    <Panel className={s.card}>
      <Subtitle1 as="h2">{title}</Subtitle1>
      {config.status === 'loading' && <Spinner size="small" label="Loading your config..." />}
      {config.status === 'error' && <Bar intent="error">{config.error}</Bar>}
      {config.status === 'ready' && (
        <SchemaForm<T>
          key={config.saved ? 'saved' : 'new'}
          schema={schema as RJSFSchema}
          uiSchema={uiSchema}
          formData={config.saved}
          onChange={onChange}
          onSubmit={(d) => void save(d)}
          submitText="Save config"
          busy={config.saving}
          idPrefix={idPrefix}
          afterSubmit={
            <div className={s.actions}>
              {actions.map((a, i) => (
                <Button
                  key={a.label}
                  type="button"
                  appearance={a.primary ? 'primary' : undefined}
                  onClick={() => void latest.current[i]?.onClick()}
                  disabled={a.disabled}
                >
                  {a.label}
                </Button>
              ))}
              {busyLabel && <Spinner size="tiny" label={busyLabel} />}
            </div>
          }
        />
      )}
      {config.justSaved && <Bar intent="success">Config Saved</Bar>}
      {config.status === 'ready' && config.error && <Bar intent="error">{config.error}</Bar>}
      {config.status === 'ready' && hint && <Caption1 className={s.hint}>{hint}</Caption1>}
      {notice && <Bar intent={notice.intent}>{notice.text}</Bar>}
    </Panel>
  );
}
