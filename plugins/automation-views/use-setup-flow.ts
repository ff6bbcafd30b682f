/**
 * The setup flow of spec section 4 as one hook, shared by both setup views: it loads the
 * combination, the user's recipe records, connections and recipe, polls connections every
 * 10 s until the combination is authorised, sends the setup webhook call (and reloads the page
 * on status ok), polls the setup status until it is ready, and re-polls the recipe every 10 s at
 * most 8 times after a start, stop or refresh. Nothing here starts a recipe: only the user's
 * Start does (the starter recipe may prepare the folder and the sheet, nothing more), and the
 * screen names the connections the recipe's steps still need ('Connect Google Sheets to start').
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useApi, useEnvironment, useEventBus, useRegistry, useService, useSession, T, userMessage } from '../../src/app';
import {
  authorisationSourceFrom,
  connectorNeedsAuthorisation,
  isAuthorised,
  recipeFor,
  type Combination,
  type ProviderConnection,
  type RecipeSetupStatus,
  type UserRecipeRecord,
} from '../../src/core';
import {
  combinationOf,
  connectionsOf,
  engineRecipeOf,
  postSetupCall,
  providerRecipeOf,
  recordsOf,
  setRunning,
  triggerHealthOf,
  whoAmI,
  type EngineRecipe,
  type TriggerHealth,
} from './automation-api';
import { MAX_REPOLLS, POLL_MS, missingConnectionNames, setupCallBody } from './setup-rules';

export const NO_WORKSPACE = 'Your automation workspace is not ready yet. Please log out and log in again.';
export const NO_RECIPE = 'There is no recipe for this combination in your workspace yet.';

export interface SetupFlow {
  phase: 'loading' | 'error' | 'ready';
  /** why the screen could not load (phase 'error') */
  loadError?: string;
  combination?: Combination;
  /** the user's record for this combination */
  record?: UserRecipeRecord;
  /** undefined while the connections are loading */
  connections?: ProviderConnection[];
  authorised: boolean;
  /**
   * the connections the recipe's steps need that are not made, by name ('Google Sheets'): the
   * recipe cannot start while there is one (the server refuses too)
   */
  missing: string[];
  status?: RecipeSetupStatus;
  /** undefined while unknown */
  running?: boolean;
  succeeded: number;
  failed: number;
  /** the engine's view of the recipe: steps (installed or not), webhook and inbound address */
  engine?: EngineRecipe;
  /** a start or stop is in flight */
  busy: boolean;
  /** why the last start/stop failed ('Connector not found. …') */
  actionError?: string;
  /** bumps whenever the jobs may have changed (after a start, a re-poll, an upload) */
  jobsVersion: number;
  /**
   * whether the recipe's trigger can listen, read with the recipe (on load and at every re-poll):
   * a trigger that cannot (the e-mail port taken, the Drive connection lost) is never shown as ready
   */
  triggerHealth?: TriggerHealth;
  /** starts or stops the recipe */
  setRun(run: boolean): Promise<void>;
  /** reloads the recipe and records, then re-polls (spec: after a refresh action) */
  refresh(): void;
  reload(): void;
  /** reads the connections again at once (the widget reported a Connect or Disconnect) */
  refreshConnections(): void;
}

const messageOf = (e: unknown) => userMessage(e, 'Something went wrong. Please try again.');

/** The setup flow of one combination for the logged-in user. */
export function useSetupFlow(combinationId: number): SetupFlow {
  const api = useApi();
  const events = useEventBus();
  const session = useSession();
  const env = useEnvironment();
  const registry = useRegistry();
  const navigator = useService(T.Navigator);
  const source = useMemo(() => authorisationSourceFrom(registry), [registry]);
  const workatoId = session.workatoId;

  const [loadTick, setLoadTick] = useState(0);
  const [phase, setPhase] = useState<SetupFlow['phase']>('loading');
  const [loadError, setLoadError] = useState<string>();
  const [combination, setCombination] = useState<Combination>();
  const [records, setRecords] = useState<UserRecipeRecord[]>();
  const [connections, setConnections] = useState<ProviderConnection[]>();
  const [running, setRunningState] = useState<boolean>();
  const [counts, setCounts] = useState<{ succeeded: number; failed: number }>();
  const [engine, setEngine] = useState<EngineRecipe>();
  /** whether a connections list still lacks one the recipe's steps need (steps unknown: maybe) */
  const stepsMissRef = useRef<(list: ProviderConnection[]) => boolean>(() => true);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const [jobsVersion, setJobsVersion] = useState(0);
  const [repollTick, setRepollTick] = useState(0);
  const alive = useRef(true);
  const setupSent = useRef(false);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  // 1. the combination and the user's records (nothing renders before them)
  useEffect(() => {
    let live = true;
    setPhase('loading');
    setLoadError(undefined);
    if (workatoId === null) {
      setLoadError(NO_WORKSPACE);
      setPhase('error');
      return;
    }
    Promise.all([combinationOf(api, combinationId), recordsOf(api, workatoId)]).then(
      ([c, r]) => {
        if (!live) return;
        setCombination(c);
        setRecords(r);
        setPhase('ready');
      },
      (e) => {
        if (!live) return;
        console.log(e);
        setLoadError(messageOf(e));
        setPhase('error');
      },
    );
    return () => {
      live = false;
    };
  }, [api, combinationId, workatoId, loadTick]);

  const record = combination && records ? recipeFor(combination, records) : undefined;
  const starter = records?.find((r) => r.combination === 0);
  const recipeId = record?.recipe_id;
  const authorised = combination && connections ? isAuthorised(combination, connections, source) : false;
  const status = record?.status;
  stepsMissRef.current = (list) =>
    !engine ||
    missingConnectionNames({
      steps: engine.steps,
      connections: list,
      connectors: combination?.connectors,
      needsAuthorisation: (provider) => connectorNeedsAuthorisation(source, { provider }),
      nameOf: (provider) => registry.connectors.get(provider)?.name,
    }).length > 0;
  const missing = useMemo(
    () =>
      missingConnectionNames({
        steps: engine?.steps,
        connections,
        connectors: combination?.connectors,
        needsAuthorisation: (provider) => connectorNeedsAuthorisation(source, { provider }),
        nameOf: (provider) => registry.connectors.get(provider)?.name,
      }),
    [engine, connections, combination, source, registry],
  );

  // 2. connections, then every 10 s until the combination is authorised and every connection
  //    its steps need is made (combination 1 is authorised by Drive alone; Sheets still counts)
  useEffect(() => {
    if (workatoId === null || !combination) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      connectionsOf(api, workatoId).then(
        (list) => {
          if (!live) return;
          setConnections(list);
          if (!isAuthorised(combination, list, source) || stepsMissRef.current(list)) timer = setTimeout(poll, POLL_MS);
        },
        (e) => {
          console.log(e);
          if (!live) return;
          setConnections((prev) => prev ?? []);
          timer = setTimeout(poll, POLL_MS);
        },
      );
    void poll();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, workatoId, combination, source, loadTick]);

  const loadRecipe = useCallback(async () => {
    if (workatoId === null || recipeId === undefined) return;
    const [provider, steps] = await Promise.allSettled([providerRecipeOf(api, workatoId, recipeId), engineRecipeOf(api, recipeId)]);
    if (!alive.current) return;
    if (provider.status === 'fulfilled') {
      setRunningState(!!provider.value.running);
      setCounts({ succeeded: provider.value.job_succeeded_count ?? 0, failed: provider.value.job_failed_count ?? 0 });
    } else console.log(provider.reason);
    if (steps.status === 'fulfilled') setEngine(steps.value);
    else console.log(steps.reason);
  }, [api, workatoId, recipeId]);

  const loadRecords = useCallback(async () => {
    if (workatoId === null) return;
    try {
      const r = await recordsOf(api, workatoId);
      if (alive.current) setRecords(r);
    } catch (e) {
      console.log(e);
    }
  }, [api, workatoId]);

  // 3. the recipe: running state, counts, the engine's steps
  useEffect(() => {
    void loadRecipe();
  }, [loadRecipe, loadTick]);

  // 4. the setup call, once connected, for a record whose setup has not started
  useEffect(() => {
    if (!authorised || !record || !combination || workatoId === null) return;
    if (record.status !== 'no started' || !record.workato_webhook || setupSent.current) return;
    setupSent.current = true;
    const webhook = record.workato_webhook;
    (async () => {
      const me = await whoAmI(api);
      const body = setupCallBody({
        workatoId,
        email: me.email,
        environmentId: env.environmentId,
        combinationId: combination.id,
        ownRecipeId: record.recipe_id,
        starterRecipeId: starter?.recipe_id,
        usesStarter: !!combination.starter_recipe,
      });
      const reply = await postSetupCall(api, webhook, body);
      if (reply?.status === 'ok') navigator.reload();
    })().catch((e) => console.log(e)); // spec section 8: webhook errors are logged only
  }, [api, authorised, record, combination, workatoId, env.environmentId, starter?.recipe_id, navigator]);

  // 5. the setup status, every 10 s while it is on its way (started); it then waits for Start
  useEffect(() => {
    if (!authorised || status !== 'started') return;
    const timer = setInterval(() => void loadRecords(), POLL_MS);
    return () => clearInterval(timer);
  }, [authorised, status, loadRecords]);

  const setRun = useCallback(
    async (run: boolean) => {
      if (workatoId === null || recipeId === undefined) return;
      setBusy(true);
      setActionError(undefined);
      try {
        const reply = await setRunning(api, workatoId, recipeId, run);
        if (!alive.current) return;
        const nowRunning = typeof reply?.running === 'boolean' ? reply.running : run;
        setRunningState(nowRunning);
        // the setup screen's sidebar (and anything else) hears of it at once
        if (combination) events.publish(nowRunning ? 'recipe/started' : 'recipe/stopped', { combinationId: combination.id, recipeId });
      } catch (e) {
        if (!alive.current) return;
        setActionError(messageOf(e));
      } finally {
        if (alive.current) setBusy(false);
      }
      await Promise.all([loadRecords(), loadRecipe()]);
      if (alive.current) {
        setJobsVersion((v) => v + 1);
        setRepollTick((t) => t + 1);
      }
    },
    [api, workatoId, recipeId, loadRecords, loadRecipe, events, combination],
  );

  // 6. after a start, stop or refresh: re-poll every 10 s, at most 8 times
  useEffect(() => {
    if (repollTick === 0) return;
    let n = 0;
    const timer = setInterval(() => {
      n += 1;
      void loadRecipe();
      void loadRecords();
      setJobsVersion((v) => v + 1);
      if (n >= MAX_REPOLLS) clearInterval(timer);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [repollTick, loadRecipe, loadRecords]);

  const refresh = useCallback(() => {
    void loadRecipe();
    void loadRecords();
    setJobsVersion((v) => v + 1);
    setRepollTick((t) => t + 1);
  }, [loadRecipe, loadRecords]);

  const [triggerHealth, setTriggerHealth] = useState<TriggerHealth>();
  useEffect(() => {
    if (recipeId === undefined) return;
    let live = true;
    triggerHealthOf(api, recipeId).then(
      (h) => live && setTriggerHealth(h),
      (e: unknown) => console.log(e),
    );
    return () => {
      live = false;
    };
  }, [api, recipeId, jobsVersion]);

  const reload = useCallback(() => setLoadTick((t) => t + 1), []);
  // the 10 s poll above stops once the combination is authorised; a connection made later (the
  // second of two) still has to show on the tiles at once
  const refreshConnections = useCallback(() => {
    if (workatoId === null) return;
    connectionsOf(api, workatoId).then(setConnections, (e: unknown) => console.log(e));
  }, [api, workatoId]);

  return {
    phase,
    loadError: loadError ?? (phase === 'ready' && !record ? NO_RECIPE : undefined),
    combination,
    record,
    connections,
    authorised,
    missing,
    status,
    running: running ?? (combination && recipeId === undefined ? combination.running : undefined),
    succeeded: counts?.succeeded ?? record?.job_succeeded_count ?? 0,
    failed: counts?.failed ?? record?.job_failed_count ?? 0,
    engine,
    busy,
    actionError,
    jobsVersion,
    triggerHealth,
    setRun,
    refresh,
    reload,
    refreshConnections,
  };
}
