/**
 * The setup screens' rules as pure functions (spec sections 2 and 4): which header, which panel,
 * what each connector tile says, the AI tile's text and the setup webhook call's body. The views
 * only render what these decide, so the rules are tested without a browser.
 */
import { AI_PROVIDER, type Connector, type ProviderConnection, type RecipeSetupStatus } from '../../src/core';

/** Polling period of connections and recipe (spec section 9). */
export const POLL_MS = 10_000;
/** After a start or refresh, the recipe is re-polled at most this many times. */
export const MAX_REPOLLS = 8;

export const TEXT = {
  loadingEnvironment: 'Loading environment....',
  connectFirst: 'First, connect your connectors.',
  settingUp: 'setting up....',
  gettingReady: 'Getting your workflow ready',
  letsGetStarted: "Let's Get Started – Please setup your connectors on the left.",
  stopped: 'Workflow Stopped',
  connectorNotFound: 'Connector not found.',
  connected: 'connected',
  notConnected: 'not connected',
  pleaseWait: 'please wait...',
  stop: 'Stop Workflow',
  start: 'Start Workflow',
  loading: 'Loading...',
  modalTitle: 'Setup Connections for Workflows',
  oauthLater:
    'Connecting an account for this connector arrives in a later release. Until then it shows as not connected, and the steps that need it cannot run.',
} as const;

/** 'Connect Google Sheets to start', 'Connect Google Drive and Google Sheets to start'. */
export function connectToStartText(names: readonly string[]): string {
  const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Connect ${list} to start`;
}

/**
 * Whether the recipe may be started as far as its setup goes: ready (its starter prepared the
 * folder and the sheet, or it had nothing to prepare) or complete. Nothing starts it but the
 * user's Start: a ready recipe waits for it (the spec's 'ready becomes complete when the recipe
 * is started').
 */
export function setupAllowsStart(status: RecipeSetupStatus | undefined): boolean {
  return status === 'ready' || status === 'complete';
}

/**
 * The connections the recipe's steps need that the user has not made, by name, in step order:
 * every step provider that needs an account (the combination's authorisation rule, e.g. 1's
 * "Drive or Sheets", decides the card only; running needs every one). Named as the combination
 * names it, else as its declared connector does (`nameOf`), else by its provider id. Empty while
 * the steps or the connections are unknown.
 */
export function missingConnectionNames(opts: {
  steps: readonly Pick<EngineStep, 'provider'>[] | undefined;
  connections: readonly ProviderConnection[] | undefined;
  connectors: readonly Pick<Connector, 'provider' | 'name'>[] | undefined;
  needsAuthorisation(provider: string): boolean;
  /** the name of the connector a plugin declares for this provider (the registry's `Connectors`) */
  nameOf?(provider: string): string | undefined;
}): string[] {
  if (!opts.steps || !opts.connections) return [];
  const providers = [...new Set(opts.steps.map((s) => s.provider))];
  return providers
    .filter((p) => opts.needsAuthorisation(p))
    .filter((p) => !opts.connections!.some((c) => c.provider === p && c.authorization_status === 'success'))
    .map((p) => opts.connectors?.find((c) => c.provider === p)?.name ?? opts.nameOf?.(p) ?? p);
}

/** What the right side of the trigger/connector view's header shows. */
export type HeaderState = 'toggle' | 'loading-environment' | 'connect-first' | 'connect-to-start';

/**
 * Spec section 2: 'First, connect your connectors.' when not connected; the activate/deactivate
 * control once setup allows a start and the user is connected; otherwise (setup started or not
 * yet begun) 'Loading environment....'. A recipe whose steps need a connection the user has not
 * made shows 'Connect Google Sheets to start' instead of a control that cannot work (one that
 * runs keeps its control, so it can be stopped).
 */
export function headerState(authorised: boolean, status: RecipeSetupStatus | undefined, missing: readonly string[] = [], running = false): HeaderState {
  if (!authorised) return 'connect-first';
  if (missing.length && !running) return 'connect-to-start';
  return setupAllowsStart(status) ? 'toggle' : 'loading-environment';
}

/** What the basic view's header shows (spec section 2, Basic workflow screen). */
export type BasicHeaderState = 'toggle' | 'setting-up' | 'none' | 'connect-to-start';

/** The start/stop control once setup allows a start, nothing when started, 'setting up....' otherwise. */
export function basicHeaderState(status: RecipeSetupStatus | undefined, missing: readonly string[] = [], running = false): BasicHeaderState {
  if (missing.length && !running) return 'connect-to-start';
  if (setupAllowsStart(status)) return 'toggle';
  if (status === 'started') return 'none';
  return 'setting-up';
}

/** The workflow panel (spec section 4, Panels); 'running' means no panel: the step detail shows. */
export type PanelState = 'lets-get-started' | 'connect-to-start' | 'getting-ready' | 'stopped' | 'running';

/**
 * Missing connections come first (the user has something to do: none at all, then the ones the
 * steps still need), then a setup that is not ready, then a stopped recipe.
 */
export function panelState(
  authorised: boolean,
  status: RecipeSetupStatus | undefined,
  running: boolean | undefined,
  missing: readonly string[] = [],
): PanelState {
  if (!authorised) return 'lets-get-started';
  if (missing.length && !running) return 'connect-to-start';
  if (!setupAllowsStart(status)) return 'getting-ready';
  if (!running) return 'stopped';
  return 'running';
}

/** The start/stop button's label (spec section 4): unknown running state reads 'Loading...'. */
export function startStopLabel(running: boolean | undefined, busy: boolean): string {
  if (busy || running === undefined) return TEXT.loading;
  return running ? TEXT.stop : TEXT.start;
}

/** What a connector tile says. */
export type TileStatus = 'connected' | 'not-connected' | 'please-wait' | 'not-found' | 'not-working';

export const TILE_TEXT: Record<TileStatus, string> = {
  'not-working': 'Not working',
  connected: TEXT.connected,
  'not-connected': TEXT.notConnected,
  'please-wait': TEXT.pleaseWait,
  'not-found': TEXT.connectorNotFound,
};

/**
 * A connector tile's status: 'Connector not found.' when the engine reports one of its steps as
 * not installed; 'please wait...' while connections load; a connector that needs an account
 * is connected only with a successful connection; the others (upload, e-mail, AI) need none.
 */
export function tileStatus(opts: {
  provider: string;
  needsAuthorisation: boolean;
  connections: readonly ProviderConnection[] | undefined;
  installed: boolean | undefined;
}): TileStatus {
  if (opts.installed === false) return 'not-found';
  if (!opts.needsAuthorisation) return 'connected';
  if (opts.connections === undefined) return 'please-wait';
  return opts.connections.some((c) => c.provider === opts.provider && c.authorization_status === 'success') ? 'connected' : 'not-connected';
}

/** The AI provider's tile: '{first word of recipe name} processed by {name}'. */
export function aiTileText(recipeName: string, connectorName: string): string {
  const first = recipeName.trim().split(/\s+/)[0] ?? '';
  return `${first} processed by ${connectorName}`.trim();
}

/** Whether a connector is the product's own AI step. */
export function isAiProvider(provider: string): boolean {
  return provider === AI_PROVIDER;
}

/** Connectors by their order (ties keep their listed order). */
export function byOrder<C extends Pick<Connector, 'order'>>(connectors: readonly C[] | undefined): C[] {
  return [...(connectors ?? [])].sort((a, b) => a.order - b.order);
}

/** An engine step as GET /api/automation/recipes/:id lists it. */
export interface EngineStep {
  index: number;
  kind: 'trigger' | 'action';
  provider: string;
  action: string;
  name: string;
  installed: boolean;
  /** a step made with defineAction: the connection it uses */
  auth?: string;
  /** and its settings: the JSON Schema and the recipe's values */
  settings?: { schema: Record<string, unknown>; values: Record<string, unknown> };
}

/**
 * Whether every step of a provider is installed; undefined while the steps are unknown (or the
 * provider has no step: a connector listed for show only is not "not found").
 */
export function providerInstalled(steps: readonly EngineStep[] | undefined, provider: string, kind?: EngineStep['kind']): boolean | undefined {
  if (!steps) return undefined;
  const mine = steps.filter((s) => s.provider === provider && (kind === undefined || s.kind === kind));
  if (!mine.length) return undefined;
  return mine.every((s) => s.installed);
}

/** The setup webhook call's body (spec section 4, Setup flow). */
export interface SetupCallBody {
  customer_id: number;
  email: string;
  instance: number;
  recipe_id: number;
  combination_id: number;
}

/**
 * The body of the setup call: the managed user (customer_id), the user's e-mail, the
 * environment id (instance), the recipe being started — the starter recipe for a combination
 * that starts one, else its own — and the combination id.
 */
export function setupCallBody(opts: {
  workatoId: number;
  email: string;
  environmentId: number;
  combinationId: number;
  ownRecipeId: number;
  starterRecipeId: number | undefined;
  usesStarter: boolean;
}): SetupCallBody {
  return {
    customer_id: opts.workatoId,
    email: opts.email,
    instance: opts.environmentId,
    recipe_id: opts.usesStarter && opts.starterRecipeId !== undefined ? opts.starterRecipeId : opts.ownRecipeId,
    combination_id: opts.combinationId,
  };
}

/**
 * The path to post a webhook address to: the engine serves every recipe's webhook on the API
 * itself, so an absolute address is reduced to its path and sent through the API base (which
 * differs from the page's origin outside local development).
 */
export function webhookPath(url: string): string {
  try {
    const u = new URL(url, 'http://relative.invalid');
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
