import { useCallback, useEffect, useState } from 'react';
import { Body1, Button, Caption1, Field, MessageBar, MessageBarBody, Select, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useApi, useDateTime, useEventBus, userMessage } from '../../src/app';

/** GET /api/plugins/connectors/recipes/:id/targets (the connectors plugin). */
export interface RecipeTargets {
  recipe_id: number;
  combination_name: string;
  needs: { folder: boolean; sheet: boolean };
  folder: { id: string; name: string | null } | null;
  sheet: { id: string; name: string | null } | null;
  trigger: { name: string; watching: boolean; last_polled_at: string | null; last_error: string | null; items: number; interval_ms: number } | null;
}

export type TargetKind = 'folder' | 'spreadsheet';

const BASE = '/api/plugins/connectors';
const LABEL: Record<TargetKind, { what: string; field: 'folder' | 'sheet'; body: 'folder_id' | 'sheet_id' }> = {
  folder: { what: 'Google Drive folder', field: 'folder', body: 'folder_id' },
  spreadsheet: { what: 'Google Sheet', field: 'sheet', body: 'sheet_id' },
};

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', minWidth: 0 },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'end' },
  muted: { color: tokens.colorNeutralForeground2 },
  name: { overflowWrap: 'anywhere' },
});

const messageOf = (e: unknown) => userMessage(e, 'Something went wrong. Please try again.');

function seconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * The recipe's Drive folder (watched by its trigger) or Google Sheet (written by its step), in the
 * setup screen's detail column: which one it is, the trigger's state, and a small picker listing
 * the user's own folders or spreadsheets to choose another.
 */
export function TargetPicker({ recipeId, kind }: { recipeId: number; kind: TargetKind }) {
  const { time } = useDateTime();
  const s = useStyles();
  const api = useApi();
  const events = useEventBus();
  const label = LABEL[kind];
  const [targets, setTargets] = useState<RecipeTargets>();
  const [missing, setMissing] = useState(false);
  const [items, setItems] = useState<Array<{ id: string; name: string }>>();
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const load = useCallback(() => {
    api.get<RecipeTargets>(`${BASE}/recipes/${recipeId}/targets`).then(
      (t) => {
        setTargets(t);
        setMissing(false);
      },
      (e: unknown) => {
        // no connectors plugin on this server: nothing to show
        if ((e as { status?: number }).status === 404) setMissing(true);
        else setError(messageOf(e));
      },
    );
  }, [api, recipeId]);

  useEffect(() => {
    load();
  }, [load]);
  // a start or stop on this screen changes what is watched: read it again at once, so a stopped
  // workflow never reads 'Watching for new files'
  useEffect(() => {
    const subs = [events.on('recipe/started').subscribe(load), events.on('recipe/stopped').subscribe(load)];
    return () => subs.forEach((sub) => sub.unsubscribe());
  }, [events, load]);
  // the trigger's state moves while the workflow runs: read it again every 10 s (not when there is nothing to read)
  useEffect(() => {
    if (missing) return;
    const timer = window.setInterval(load, 10_000);
    return () => window.clearInterval(timer);
  }, [load, missing]);

  const openPicker = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const r = await api.get<{ items: Array<{ id: string; name: string }> }>(`${BASE}/picker?kind=${kind}`);
      setItems(r.items);
      setChoice(r.items.find((i) => i.id === targets?.[label.field]?.id)?.id ?? r.items[0]?.id ?? '');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (!choice) return;
    setError(undefined);
    setBusy(true);
    try {
      setTargets(await api.put<RecipeTargets>(`${BASE}/recipes/${recipeId}/targets`, { [label.body]: choice }));
      setItems(undefined);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  if (missing) return null;
  if (!targets)
    return error ? (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    ) : (
      <Spinner size="tiny" label={`Loading the ${label.what}...`} />
    );
  const current = targets[label.field];
  const trigger = kind === 'folder' ? targets.trigger : null;
  return (
    <section className={s.root} aria-label={label.what}>
      <Body1 data-testid={`target-${kind}`}>
        {label.what}:{' '}
        {current ? (
          <strong className={s.name}>{current.name ?? current.id}</strong>
        ) : (
          <span className={s.muted}>none yet: "{targets.combination_name}" is created when the workflow is set up, or choose one</span>
        )}
      </Body1>
      {trigger && (
        <Caption1 className={s.muted} data-testid="trigger-state">
          {trigger.watching
            ? `Watching for new files every ${seconds(trigger.interval_ms)}${trigger.last_polled_at ? `, last looked at ${time(trigger.last_polled_at)}` : ''}. ${trigger.items} ${trigger.items === 1 ? 'file' : 'files'} so far.`
            : 'Not watching: start the workflow to watch this folder. Files already in it, or added while it is stopped, wait: on Start you choose whether to process or skip them.'}
        </Caption1>
      )}
      {trigger?.last_error && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>The folder could not be checked: {trigger.last_error}</MessageBarBody>
        </MessageBar>
      )}
      {items === undefined ? (
        <div>
          <Button size="small" onClick={() => void openPicker()} disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined}>
            {current ? `Choose another ${kind === 'folder' ? 'folder' : 'spreadsheet'}` : `Choose a ${kind === 'folder' ? 'folder' : 'spreadsheet'}`}
          </Button>
        </div>
      ) : items.length === 0 ? (
        <Body1 className={s.muted}>No {kind === 'folder' ? 'folders' : 'spreadsheets'} were found in your account.</Body1>
      ) : (
        <div className={s.row}>
          <Field label={`Your ${kind === 'folder' ? 'folders' : 'spreadsheets'}`}>
            <Select value={choice} onChange={(_, d) => setChoice(d.value)}>
              {items.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name}
                </option>
              ))}
            </Select>
          </Field>
          <Button appearance="primary" size="small" onClick={() => void save()} disabled={busy || !choice}>
            Use this {kind === 'folder' ? 'folder' : 'spreadsheet'}
          </Button>
          <Button size="small" onClick={() => setItems(undefined)} disabled={busy}>
            Cancel
          </Button>
        </div>
      )}
      {error && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
