import { provide } from '../../core/plugin';
import { token } from '../../core/di';
import { defineServerPlugin } from '../plugin';
import * as T from '../tokens';
import { RecipeControlToken } from '../provider/recipe-control';
import { Connections } from '../connections';
import { Accounts } from '../auth';
import { builtinActions } from './builtins/actions';
import { builtinTriggers } from './builtins/triggers';
import { AutomationEngine } from './engine';
import { InboundMailListener } from './inbound-mail';
import { AutomationActions, AutomationTriggers } from './kinds';
import { automationMigrations } from './migrations';
import { AutomationOptions, engineOptionsFrom } from './options';
import { registerAutomationRoutes } from './routes';
import { registerJobFileRoutes } from './job-files';
import { RUN_JOB, type RunJobData } from './runner';
import { PushTriggers, pushTriggerService } from './push';
import { RecipeTargetStore } from './user-recipes';
import { FinishedJobs, finishedJobs } from './finished-jobs';
import { CombinationRecipes, combinationRecipes } from './combination-recipes';
import { CombinationWorkflows } from '../catalogue/combination-workflows';
import { CombinationFacts } from '../catalogue/combination-facts';
import './schema';

/** The engine service (runs recipes, answers start/stop and the setup flow). */
export const Automation = token<AutomationEngine>('AutomationEngine');
/** The manual_email trigger's SMTP listener (started when INBOUND_SMTP_PORT is not 0). */
export const InboundMail = token<InboundMailListener>('InboundMailListener');

/**
 * The automation engine as a core module: declares the trigger and action contribution kinds,
 * contributes the built-in ones, keeps every user's recipe records (backfilled at start-up), runs
 * jobs from the queue ('automation.run'), serves the jobs API and the webhooks, answers the
 * provider's start/stop/status calls through RecipeControl, and listens for inbound mail.
 */
export const automationModule = defineServerPlugin({
  id: 'automation',
  migrations: automationMigrations,
  declares: [AutomationTriggers, AutomationActions],
  contributes: [...builtinTriggers, ...builtinActions],
  provides: [
    provide(AutomationOptions, (get) => engineOptionsFrom(get(T.ServerConfig))),
    provide(Automation, (get) => {
      const config = get(T.ServerConfig);
      return new AutomationEngine({
        db: get(T.Db),
        registry: get(T.Contributions),
        queue: get(T.JobQueue),
        events: get(T.EventBus),
        files: get(T.FileStore),
        text: get(T.TextGenerator),
        mailer: get(T.Mailer),
        log: get(T.Logger),
        options: get(AutomationOptions),
        publicUrl: config.publicUrl,
        owners: get(Accounts),
        catalogue: get(CombinationFacts),
        chatWebhookUrl: config.chatWebhookUrl,
        stepRuntime: () => ({ connections: get(Connections), allowLoopback: get(AutomationOptions).stepHttpAllowLoopback === true }),
      });
    }),
    provide(RecipeControlToken, (get) => {
      const engine = get(Automation);
      return {
        start: (managedUserId: number, recipeId: number) => engine.start(managedUserId, recipeId),
        stop: (managedUserId: number, recipeId: number) => engine.stop(managedUserId, recipeId),
        setSetupStatus: (managedUserId: number, recipeId: number, status: unknown) => engine.setSetupStatus(managedUserId, recipeId, status),
        ensureRecords: (managedUserId: number) => engine.recipes.ensureFor(managedUserId),
        recipe: (managedUserId: number, recipeId: number) => engine.recipes.providerRecipe(managedUserId, recipeId),
        records: (managedUserId: number) => engine.recipes.records(managedUserId),
      };
    }),
    provide(RecipeTargetStore, (get) => get(Automation).recipes),
    provide(FinishedJobs, (get) => finishedJobs(get(T.Db), get(CombinationWorkflows))),
    provide(CombinationRecipes, () => combinationRecipes()),
    provide(PushTriggers, (get) => pushTriggerService({ engine: get(Automation), registry: get(T.Contributions), files: get(T.FileStore) })),
    provide(InboundMail, (get) => {
      const config = get(T.ServerConfig);
      const engine = get(Automation);
      const options = get(AutomationOptions);
      return new InboundMailListener({
        domain: config.inboundMailDomain,
        maxMessageBytes: options.maxInboundMailBytes,
        maxAttachmentBytes: config.maxUploadBytes,
        db: get(T.Db),
        files: get(T.FileStore),
        recipeById: (id) => engine.recipes.byId(id),
        run: (recipe, payload) => engine.run(recipe, payload),
        log: get(T.Logger),
      });
    }),
  ],
  needs: {
    engine: Automation,
    inbound: InboundMail,
    config: T.ServerConfig,
    files: T.FileStore,
    registry: T.Contributions,
    options: AutomationOptions,
    log: T.Logger,
  },
  routes(app, { engine, inbound, files, registry, config, options }) {
    registerAutomationRoutes(app, {
      engine,
      files,
      registry,
      maxUploadBytes: config.maxUploadBytes,
      webhookRateLimit: options.webhookRateLimit,
      inbound,
    });
    registerJobFileRoutes(app, { engine, secretKey: config.secretKey });
  },
  jobs: {
    [RUN_JOB]: { concurrency: 8, handler: (data: RunJobData, { engine }, job) => engine.runner.run(data, job) },
  },
  async onStart({ engine, inbound, config, log }) {
    const created = await engine.recipes.backfill();
    if (created) log.info({ created }, 'user recipes backfilled');
    if (config.inboundSmtpPort > 0) {
      try {
        const port = await inbound.start({ port: config.inboundSmtpPort, host: config.inboundSmtpHost });
        log.info({ port, domain: config.inboundMailDomain }, `Inbound mail listening on ${config.inboundSmtpHost}:${port}`);
      } catch (e) {
        // the rest of the server still works; only the manual_email trigger is unavailable
        log.error(
          { err: e },
          `Inbound mail could not listen on ${config.inboundSmtpHost}:${config.inboundSmtpPort} (${(e as Error).message}); set INBOUND_SMTP_PORT to a free port, or 0 to disable it`,
        );
      }
    }
  },
  async onStop({ inbound }) {
    await inbound.stop();
  },
});

export { AutomationEngine, RunRefusedError, isSetupCall, jobView, stepView, type JobView, type StepView, type SetupCall } from './engine';
export { AutomationActions, AutomationTriggers, stepKey } from './kinds';
export type { ActionContext, ActionDefinition, FileRef, OutgoingMail, TriggerDefinition, TriggerPayload, TriggerSource } from './kinds';
export { ConnectorNotFoundError, PermanentStepError, StepTimeoutError, OutputTooLargeError, CONNECTOR_NOT_FOUND } from './errors';
export { AutomationOptions, engineOptionsFrom, type EngineOptions } from './options';
export { InboundMailListener, inboundAddress, mailTokenOfAddress, type InboundMailState } from './inbound-mail';
export { nextSetupStatus, nextStarterStatus, isForwardMove, type SetupEvent, type SetupFacts } from './setup-status';
export { retryDelayMs, withTimeout } from './backoff';
export { summarise, summariseTrigger } from './summary';
export { messageIdFor } from './builtins/actions';
export { RUN_JOB, JobRunner } from './runner';
export { jobLink } from './notices';
export { WEBHOOK_PATH, UserRecipes, RecipeTargetStore, type RecipeTargets, type RecipeTarget, type RecipeTargetService } from './user-recipes';
export { STARTER_TEMPLATE } from './plan';
export { FinishedJobs, type FinishedJobFact, type FinishedJobService } from './finished-jobs';
export { CombinationRecipes, type CombinationRecipesService } from './combination-recipes';
export { PushTriggers, type PushRunRequest, type PushTriggerService } from './push';
export {
  defineAction,
  defineTrigger,
  isTypedAction,
  StepSettingsError,
  type ActionSpec,
  type StepConnection,
  type StepContext,
  type StepHttp,
  type StepHttpOptions,
  type StepHttpResponse,
  type TriggerSpec,
  type TypedActionDefinition,
} from './steps';
export { applyTemplates, fillTemplate, fieldsOf, pathValue } from './templating';
export type { JsonSchema, StepDeclaration } from './kinds';
