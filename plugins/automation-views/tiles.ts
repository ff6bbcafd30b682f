/**
 * The left column's tiles of both setup views, built from the combination, the engine's steps
 * and the user's connections (spec section 2).
 */
import { cleanCombinationName, connectorNeedsAuthorisation, type AuthorisationSource, type Combination, type ProviderConnection } from '../../src/core';
import type { EngineRecipe, TriggerHealth } from './automation-api';
import type { SelectedItem } from './StepDetail';
import type { StepTile } from './StepColumn';
import { aiTileText, byOrder, isAiProvider, providerInstalled, tileStatus, type EngineStep } from './setup-rules';

export interface TileModel {
  tile: StepTile;
  item?: SelectedItem;
}

interface TileContext {
  combination: Combination;
  engine: EngineRecipe | undefined;
  connections: ProviderConnection[] | undefined;
  source: AuthorisationSource;
  recipeName: string | undefined;
  /** the recipe's trigger health: a trigger that cannot listen makes its provider's tiles read 'Not working' */
  health?: TriggerHealth;
}

function stepsOf(engine: EngineRecipe | undefined, provider: string, kind: EngineStep['kind']): EngineStep[] {
  return (engine?.steps ?? []).filter((s) => s.provider === provider && s.kind === kind);
}

function statusOf(ctx: TileContext, provider: string, kind: EngineStep['kind']) {
  if (!ctx.engine) return 'please-wait' as const;
  const trigger = ctx.engine.steps.find((s) => s.kind === 'trigger');
  if (ctx.health && !ctx.health.working && trigger?.provider === provider && providerInstalled(ctx.engine.steps, provider, kind) !== false)
    return 'not-working' as const;
  return tileStatus({
    provider,
    needsAuthorisation: connectorNeedsAuthorisation(ctx.source, { provider }),
    connections: ctx.connections,
    installed: providerInstalled(ctx.engine.steps, provider, kind),
  });
}

/** 'Connect Source': one tile per trigger of the combination, its status from the recipe's trigger step. */
export function triggerTiles(ctx: TileContext): TileModel[] {
  const triggerStep = ctx.engine?.steps.find((s) => s.kind === 'trigger');
  return (ctx.combination.triggers ?? []).map((t, i) => {
    const provider = triggerStep?.provider ?? t.icon;
    const status = statusOf(ctx, provider, 'trigger');
    const tile: StepTile = { key: `wf-trigger-${i}`, group: 'trigger', icon: t.icon, title: t.name, status };
    return { tile, item: { group: 'trigger', title: t.name, icon: t.icon, provider, status, steps: stepsOf(ctx.engine, provider, 'trigger') } };
  });
}

/**
 * The connectors by order, each with its status; the AI provider's tile reads '{first word of
 * recipe name} processed by {name}' in the trigger/connector view and the workflow name in the
 * basic view. Keys are 'wf-conn-{index}'.
 */
export function connectorTiles(ctx: TileContext, variant: 'trigger-connector' | 'basic'): TileModel[] {
  return byOrder(ctx.combination.connectors).map((c, i) => {
    const title = isAiProvider(c.provider)
      ? variant === 'basic'
        ? cleanCombinationName(ctx.combination.name)
        : aiTileText(ctx.recipeName ?? ctx.combination.name, c.name)
      : c.name;
    const status = statusOf(ctx, c.provider, 'action');
    const tile: StepTile = { key: `wf-conn-${i}`, group: 'action', icon: c.provider, title, status };
    const steps = stepsOf(ctx.engine, c.provider, 'action');
    const triggerSteps = steps.length ? [] : stepsOf(ctx.engine, c.provider, 'trigger');
    return {
      tile,
      item: {
        group: triggerSteps.length ? 'trigger' : 'action',
        title,
        icon: c.provider,
        provider: c.provider,
        status,
        steps: steps.length ? steps : triggerSteps,
      },
    };
  });
}

export const END_TILE: TileModel = { tile: { key: 'wf-end', group: 'end', title: 'End' } };
