/**
 * The server's public face: everything a server plugin may use. Plugins import from here (or
 * src/core), never from a deeper path of src/server (tests/unit/core/public-faces.test.ts).
 */
export { defineServerPlugin, pluginApiPrefix, type AnyServerPlugin, type DepsOf, type Needs, type PluginStep, type ServerPlugin } from './plugin';
export * as T from './tokens';
export { provide, contribute, contributionKind, type ContributionKind } from '../core';
export { userOf, type AuthUser, type RouteAuth } from './auth/guard';
export { HttpError, badRequest, forbidden, notFound, unauthorised } from './http/errors';
export { asId, parseId } from './http/ids';
export { SPEC_PLUGIN_PATHS } from './http/spec-paths';
export type { Migration } from './db/migrate';
export type { Db } from './db/database';
export { ConfigError, boolVar, intVar, urlVar, type Env, type ServerConfig } from './config';
export type { JobQueue, JobOptions, JobRecord, JobStatus, JobContext } from './queue/job-queue';
export { queueMail, MAIL_JOB, type MailMessage } from './mail';
export { keyedRateLimit, TOO_MANY_FOR_RECIPIENT } from './http/rate-limits';
export { AI_PROVIDER, AI_PROVIDER_NAME, SOLUTIONS, connectors, trigger } from './catalogue/building-blocks';
export type { CatalogueContribution, CombinationSeed, ConnectorSeed, RecipeTemplateSeed, SolutionSeed, TriggerSeed, WorkflowSeed } from './catalogue/types';
export type { GeneratedText, TextGenerator, TextTask } from './ai/text-generation/text-generator';
export { joinSentences, listPhrase, pick, plural } from './ai/text-generation/prose';
export * from './files';
export { readPage, readWebsite, normaliseWebsiteInput, type PageContent } from './web-fetch/page-reader';
export { safeFetch, decodeBody, WebFetchError, HTML_TYPES, IMAGE_TYPES } from './web-fetch/safe-fetch';
export { LexiconEmotionAnalyser, LlmEmotionAnalyser, analyseText, type EmotionAnalyser } from './ai/emotion';
export { extractInvoice, extractDocumentFields, readDocument } from './ai/extraction';
export { TesseractOcrPool, type OcrEngine } from './ai/ocr';
export * from './tabular';
export * from './combination';
export { renderFirstPagePng, DocumentReadError, readPdfBounded, PDF_BUDGET } from './ai/pdf';
export {
  AutomationActions,
  AutomationTriggers,
  PermanentStepError,
  CONNECTOR_NOT_FOUND,
  type ActionContext,
  type ActionDefinition,
  type FileRef,
  type TriggerDefinition,
  type TriggerPayload,
  defineAction,
  defineTrigger,
  PushTriggers,
  StepSettingsError,
  applyTemplates,
  fillTemplate,
  type ActionSpec,
  type JsonSchema,
  type PushRunRequest,
  type PushTriggerService,
  type StepConnection,
  type StepContext,
  type StepHttp,
  type StepHttpResponse,
  type TriggerSpec,
  RecipeTargetStore,
  type RecipeTargets,
  type RecipeTargetService,
} from './automation';
export * from './ai/services';
export { PageReadError, type ReadWebsiteResult } from './web-fetch/page-reader';
export { type SafeFetchOptions, type WebFetchErrorCode } from './web-fetch/safe-fetch';
export { EmptyTextError, TextTooLongError } from './ai/emotion';
export { downloadUrl, DOWNLOAD_PATH } from './files/routes';
export {
  Connections,
  ConnectionService,
  NotConnectedError,
  CONNECT_DONE_PAGE,
  CONNECTIONS_API,
  type ConnectionProviderDefinition,
  type OAuthProviderSettings,
  type ConnectionView,
} from './connections';
export {
  Connectors,
  type ConnectorDefinition,
  type ConnectorSandbox,
  type EndpointSetting,
  type OAuthConnectorSettings,
  type ResolvedOAuth,
  type SandboxEndpoints,
} from './connections';
export { defineConnector, type ConnectorDeclaration, type ConnectorAuth, type KeyFormSchema } from '../core/catalogue/vocabulary';
export { TriggerPolling, TriggerPoller, type TriggerState } from './automation/polling';
export { isPolledTrigger, type PolledEvent, type PollContext, type PolledTriggerDefinition } from './automation/polled-triggers';
export type { RecipeRow } from './automation/user-recipes';
export { SetupPreparations, type SetupPreparation, type SetupRequest } from './automation/setup-preparations';
export * from './ai/extraction/jobs';
