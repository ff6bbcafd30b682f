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
/** And then every so often while it runs (a slow first look, another folder chosen). */
const REREAD_MS = 10_000;

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/**
 * The bar's title: how many files wait and why ('2 files are already in the folder', '1 file
 * arrived while stopped', or both: '3 files wait: 2 were already in the folder, 1 arrived while stopped').
 */
export function waitingText(items: Array<Pick<WaitingItem, 'why'>>): string {
  const there = items.filter((i) => i.why === 'already_there').length;
  const stopped = items.length - there;
  if (!there) return `${files(stopped)} arrived while stopped`;
  if (!stopped) return `${files(there)} ${there === 1 ? 'is' : 'are'} already in the folder`;
  return `${files(items.length)} wait: ${there} ${there === 1 ? 'was' : 'were'} already in the folder, ${stopped} arrived while stopped`;
}

/**
 * Files the workflow holds for the user's choice (issue 19), never run unasked nor dropped:
 * those put in the watched folder while it was stopped (found by the first look after Start),
 * and those already in the folder when it first started watching it (the first Start, or a folder
 * chosen later). This bar offers the choice: 'Process them' (one job each, oldest first) or
 * 'Skip' (they never run).
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
    const every = running ? setInterval(() => void read(), REREAD_MS) : undefined;
    return () => {
      live = false;
      timers.forEach(clearTimeout);
      clearInterval(every);
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
        <MessageBarTitle>{waitingText(items)}</MessageBarTitle>
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
