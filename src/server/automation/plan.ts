import type { RecipeTemplateSeed } from '../catalogue/types';
import type { ContributionRegistry } from '../../core/contributions';
import { AutomationActions, AutomationTriggers, stepKey, type ActionDefinition, type TriggerDefinition } from './kinds';
import { ConnectorNotFoundError } from './errors';
import { badRequest } from '../http/errors';
import { checkSettings, StepSettingsError } from './steps';

export type TemplateStep = RecipeTemplateSeed['steps'][number];

/** The starter recipe (combination 0): prepares what a combination's setup needs. */
export const STARTER_TEMPLATE: RecipeTemplateSeed = {
  name: 'Starter recipe',
  description: 'Prepares your workspace for a combination when you set it up.',
  steps: [
    { kind: 'trigger', provider: 'webhook', action: 'webhook_received' },
    { kind: 'action', provider: 'flowmatic', action: 'prepare_setup' },
  ],
};

/** The trigger every recipe has even when its template names none. */
export const WEBHOOK_TRIGGER_STEP: TemplateStep = { kind: 'trigger', provider: 'webhook', action: 'webhook_received' };

export interface PlannedStep {
  index: number;
  kind: 'trigger' | 'action';
  provider: string;
  action: string;
  name: string;
  params: Record<string, unknown>;
  /** undefined when no plugin contributes it */
  definition?: ActionDefinition;
  trigger?: TriggerDefinition;
}

/**
 * A recipe's steps in run order: its trigger first (index 0), then its actions, each resolved
 * against the contributed triggers and actions. Missing ones are kept (their definition
 * undefined) so a job record can name them; `assertRunnable` refuses such a plan.
 */
export function planRecipe(template: RecipeTemplateSeed, registry: ContributionRegistry): PlannedStep[] {
  const actions = registry.of(AutomationActions);
  const triggers = registry.of(AutomationTriggers);
  const trigger = template.steps.find((s) => s.kind === 'trigger') ?? WEBHOOK_TRIGGER_STEP;
  const ordered = [trigger, ...template.steps.filter((s) => s.kind === 'action')];
  return ordered.map((s, index) => {
    const key = stepKey(s);
    const definition = s.kind === 'action' ? actions.get(key) : undefined;
    const trig = s.kind === 'trigger' ? triggers.get(key) : undefined;
    return {
      index,
      kind: s.kind,
      provider: s.provider,
      action: s.action,
      name: definition?.name ?? trig?.name ?? key,
      params: s.params ?? {},
      definition,
      trigger: trig,
    };
  });
}

/**
 * Refuses a plan with a step no plugin contributes: 'Connector not found.' naming each missing
 * provider:action. A run needs its actions; starting a recipe also needs its own trigger (a
 * webhook call can run any recipe whatever its usual trigger).
 */
export function assertRunnable(plan: PlannedStep[], opts: { needTrigger: boolean }): void {
  const missing = plan.filter((s) => (s.kind === 'action' ? !s.definition : opts.needTrigger && !s.trigger)).map((s) => stepKey(s));
  if (missing.length) throw new ConnectorNotFoundError(missing);
}

/**
 * Refuses (400, naming the step and the field) a plan whose typed steps' settings, as the recipe
 * writes them, do not fit their schemas; a '{{field}}' value is checked when the step runs.
 */
export function assertSettings(plan: PlannedStep[]): void {
  for (const s of plan) {
    if (s.kind !== 'action' || !s.definition?.step) continue;
    try {
      checkSettings(s.definition.step, s.params, { templated: true });
    } catch (e) {
      if (e instanceof StepSettingsError) throw badRequest(e.message, { step: s.index, field: e.field });
      throw e;
    }
  }
}
