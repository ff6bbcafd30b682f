import { useMemo, useRef, useState } from 'react';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { Caption1, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { SchemaForm, SchemaValues, schemaForValues, useApi, userMessage } from '../../src/app';
import type { Api } from './automation-api';

type Values = Record<string, unknown>;

/** PUT /api/automation/recipes/:id/steps/:index/settings: the owner's settings of a typed step (the server checks them). */
export const saveStepSettings = (api: Api, recipeId: number, stepIndex: number, values: Values) =>
  api.put<{ status: string; settings: { schema: Values; values: Values } }>(`/api/automation/recipes/${recipeId}/steps/${stepIndex}/settings`, values);

/**
 * The step's schema arrives from the server at run time, and the page's CSP allows no run-time
 * compiling: the form checks nothing itself, and the server's answer (one sentence naming the
 * field) is shown under it.
 */
const SERVER_CHECKS: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: undefined, validationError: undefined }),
};

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground2 },
});

/**
 * A typed step's settings on the setup screen, as an rjsf form from the step's schema. While the
 * workflow is stopped they can be changed and saved (Save settings; the server checks them and
 * its sentence shows under the form, a save is confirmed there); while it runs (or its state is
 * not known yet) they are shown read-only, with how to change them.
 */
export function StepSettings({
  recipeId,
  stepIndex,
  schema,
  values,
  running,
  onSaved,
}: {
  recipeId: number | undefined;
  stepIndex: number;
  schema: Values;
  values: Values;
  running: boolean | undefined;
  onSaved(values: Values): void;
}) {
  const s = useStyles();
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const savedData = useRef<string | undefined>(undefined);
  // a '{{field}}' value is edited as the text it is (the server checks it when the step runs)
  const shown = useMemo(() => schemaForValues(schema as RJSFSchema, values), [schema, values]);
  const idPrefix = `step-${stepIndex}-settings`;

  if (running !== false || recipeId === undefined) {
    return (
      <div className={s.root}>
        <SchemaValues schema={schema as RJSFSchema} values={values} idPrefix={idPrefix} />
        {running && <Caption1 className={s.muted}>Stop the workflow to change these settings.</Caption1>}
      </div>
    );
  }

  const save = async (data: Values) => {
    setError(undefined);
    setSaved(false);
    setBusy(true);
    try {
      const reply = await saveStepSettings(api, recipeId, stepIndex, data);
      savedData.current = JSON.stringify(reply.settings.values);
      setSaved(true);
      onSaved(reply.settings.values);
    } catch (e) {
      setError(userMessage(e, 'The settings could not be saved. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={s.root}>
      <SchemaForm<Values>
        schema={shown}
        formData={values}
        validator={SERVER_CHECKS}
        idPrefix={idPrefix}
        submitText="Save settings"
        busy={busy}
        // the confirmation stays until the settings differ from the saved ones
        onChange={(data) => {
          if (JSON.stringify(data) !== savedData.current) setSaved(false);
        }}
        onSubmit={(data) => void save(data)}
      />
      <div aria-live="polite" data-testid={`step-settings-${stepIndex}-outcome`}>
        {error && (
          <MessageBar intent="error" layout="multiline">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        )}
        {saved && (
          <MessageBar intent="success">
            <MessageBarBody>Settings saved. The next run uses them.</MessageBarBody>
          </MessageBar>
        )}
      </div>
    </div>
  );
}
