/**
 * The browser shell's public face: everything a browser plugin may use. Plugins import from here
 * (or src/core), never from a deeper path of src/app (tests/unit/core/public-faces.test.ts).
 */
export { definePlugin, type ClientPlugin, type ClientPluginRegistry, type View, type WorkflowViewProps, type CombinationViewProps } from './plugin';
export * as T from './tokens';
export { useApi, useBreadcrumb, useContainer, useEnvironment, useEventBus, useObservable, useRegistry, useService, useSession, useSessionState } from './hooks';
export { ApiError } from './services/http';
export { userMessage, looksInternal, GENERIC_ERROR } from './messages';
export {
  formatDateTime,
  formatTime,
  formatDay,
  parseZoneOffset,
  browserZone,
  useUserZone,
  useDateTime,
  CHART_DAY_FORMAT,
  DATE_TIME_LOCALE,
  type ZoneOffset,
} from './date-time';
export { Placeholder } from './components/Placeholder';
export { ChunkBoundary } from './components/ChunkBoundary';
export { RovingTab, RovingTabList } from './components/RovingTabs';
export { Panel, type PanelProps } from './components/Panel';
export { PlannedView } from './components/catalogue/PlannedView';
export { LazyView } from './components/LazyView';
export { Logo } from './layout/Logo';
export { SchemaForm, SchemaValues, schemaForValues, type SchemaFormProps } from './forms';
/** Connectors: a plugin declares one (src/core defineConnector) and lists it with `connectors: [clientConnector(declaration)]`. */
export { clientConnector, defineConnector, type ConnectorContribution, type ConnectorDeclaration } from '../core';
export { Connectors } from '../core/plugin';
export { ButtonLink } from './components/catalogue/ButtonLink';
export { EmptyState } from './components/catalogue/Notice';
export {
  ConfigCard,
  useSavedConfig,
  runWorkflow,
  outcomeOfReply,
  RunWorkflowResult,
  StepFiles,
  fileToBase64,
  saveBase64,
  SortableTable,
  ColumnTable,
  NOT_SET_UP,
  RUN_STARTED,
  type ConfigAction,
  type SavedConfig,
  type RunOutcome,
  type Column,
} from './components/combination';
export * from './components/extraction';
