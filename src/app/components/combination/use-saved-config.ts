/**
 * A combination's saved config in the browser (spec 4 'Config save'): loaded once from
 * GET {path}?combination_id=, read with the real Python-literal parser; saving creates it the
 * first time (POST) and updates it afterwards (PUT {path}/{id}/); 'Config Saved' shows for 3 s.
 * `isDirty(data)` tells whether the form differs from what is saved (the spec's unsaved changes).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parsePythonLiteral, toPythonLiteral } from '../../../core';
import { useApi, useEventBus } from '../../hooks';

export const CONFIG_SAVED_MS = 3000;

interface ConfigReply {
  id: number | null;
  combination_id: number;
  config_json: string | null;
}

export interface SavedConfig<T extends object> {
  status: 'loading' | 'ready' | 'error';
  /** The saved settings, or undefined when nothing is saved yet. */
  saved: T | undefined;
  id: number | null;
  error?: string;
  saving: boolean;
  /** True for 3 seconds after a successful save. */
  justSaved: boolean;
  save(data: T): Promise<boolean>;
  isDirty(data: Partial<T>): boolean;
}

/** The settings without empty values, keys sorted: two forms with the same choices compare equal. */
export function normaliseConfig(data: object | undefined): string {
  const entries = Object.entries(data ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Reads a config_json reply; a value that is not a dict is treated as nothing saved. */
export function readConfigJson<T>(configJson: string | null): T | undefined {
  if (!configJson) return undefined;
  const value = parsePythonLiteral(configJson);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined;
}

export function useSavedConfig<T extends object>(path: string, combinationId: number): SavedConfig<T> {
  const api = useApi();
  const events = useEventBus();
  const [state, setState] = useState<{ status: SavedConfig<T>['status']; saved?: T; id: number | null; error?: string }>({ status: 'loading', id: null });
  const [saving, setSaving] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let live = true;
    api
      .get<ConfigReply>(`${path}?combination_id=${combinationId}`)
      .then((r) => live && setState({ status: 'ready', id: r?.id ?? null, saved: readConfigJson<T>(r?.config_json ?? null) }))
      .catch((e: Error) => live && setState({ status: 'error', id: null, error: e.message }));
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [api, path, combinationId]);

  const save = useCallback(
    async (data: T) => {
      setSaving(true);
      setState((s) => ({ ...s, error: undefined }));
      try {
        const body = { combination_id: combinationId, config_json: toPythonLiteral(data) };
        const reply = state.id === null ? await api.post<ConfigReply>(path, body) : await api.put<ConfigReply>(`${path}/${state.id}/`, body);
        setState({ status: 'ready', id: reply.id, saved: readConfigJson<T>(reply.config_json) ?? data });
        setJustSaved(true);
        // other plugins may react to a saved config (the domain event of the plugin contract)
        events.publish('config/saved', { kind: path, combinationId });
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setJustSaved(false), CONFIG_SAVED_MS);
        return true;
      } catch (e) {
        setState((s) => ({ ...s, error: (e as Error).message }));
        return false;
      } finally {
        setSaving(false);
      }
    },
    [api, events, path, combinationId, state.id],
  );

  const isDirty = useCallback((data: Partial<T>) => normaliseConfig(data) !== normaliseConfig(state.saved), [state.saved]);

  return { status: state.status, saved: state.saved, id: state.id, error: state.error, saving, justSaved, save, isDirty };
}
