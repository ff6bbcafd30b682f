import { useCallback, useEffect, useState } from 'react';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useApi, userMessage } from '../../src/app';
import { releaseWaiting, waitingOf, type EngineRecipe, type WaitingItem } from './automation-api';

/** Triggers that are heard, not polled: nothing of theirs can wait while the recipe is stopped. */
const NOT_POLLED = new Set(['webhook', 'manual_upload', 'manual_email']);

/** Whether the recipe's trigger is polled (the Drive folder), so items can arrive while it is stopped. */
export function hasPolledTrigger(engine: EngineRecipe | undefined): boolean {
  const trigger = engine?.steps.find((s) => s.kind === 'trigger');
  return !!trigger && !NOT_POLLED.has(trigger.provider);
}

/** Re-reads after a start: the first look at the folder takes a moment. */
const SETTLE_MS = [1500, 4000];

export const waitingText = (n: number) => `${n} ${n === 1 ? 'file' : 'files'} arrived while stopped`;

/**
 * Files put in the watched folder while the workflow was stopped (issue 19): the first look after
 * Start holds them instead of running them unasked or dropping them, and this bar offers the
 * choice: 'Process them' (one job each, oldest first) or 'Skip' (they never run).
 */
export function WaitingFiles({
  engine,
  running,
  version,
  onProcessed,
}: {
  engine: EngineRecipe | undefined;
  running: boolean | undefined;
  version: number;
  onProcessed(): void;
}) {
  const api = useApi();
  const polled = hasPolledTrigger(engine);
  const recipeId = engine?.id;
  const [items, setItems] = useState<WaitingItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!polled || recipeId === undefined) return;
    let live = true;
    const read = () =>
      waitingOf(api, recipeId).then(
        (r) => live && setItems(Array.isArray(r?.items) ? r.items : []),
        (e: unknown) => console.log(e),
      );
    void read();
    const timers = running ? SETTLE_MS.map((ms) => setTimeout(() => void read(), ms)) : [];
    return () => {
      live = false;
      timers.forEach(clearTimeout);
    };
  }, [api, polled, recipeId, running, version, tick]);

  const choose = useCallback(
    async (choice: 'process' | 'skip') => {
      if (recipeId === undefined) return;
      setBusy(true);
      setError(undefined);
      try {
        await releaseWaiting(api, recipeId, choice);
        setItems([]);
        if (choice === 'process') onProcessed();
      } catch (e) {
        setError(userMessage(e, 'Something went wrong. Please try again.'));
      } finally {
        setBusy(false);
        setTick((t) => t + 1);
      }
    },
    [api, recipeId, onProcessed],
  );

  if (!polled || !items.length) return null;
  const names = items.map((i) => i.name ?? i.summary);
  return (
    <MessageBar layout="multiline" intent="warning" data-testid="waiting-files">
      <MessageBarBody>
        <MessageBarTitle>{waitingText(items.length)}</MessageBarTitle>
        {names.slice(0, 5).join(', ')}
        {names.length > 5 ? ` and ${names.length - 5} more` : ''}.{' '}
        {running ? 'Process them now, or skip them for good.' : 'Start the workflow to process them, or skip them for good.'}
        {error && <div role="alert">{error}</div>}
      </MessageBarBody>
      <MessageBarActions>
        {running && (
          <Button appearance="primary" size="small" disabled={busy} onClick={() => void choose('process')}>
            Process them
          </Button>
        )}
        <Button size="small" disabled={busy} onClick={() => void choose('skip')}>
          Skip
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
