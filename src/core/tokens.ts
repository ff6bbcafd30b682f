import { token } from './di';
import type { EventBus as EventBusService } from './event-bus';
import type { EnvironmentInfo } from './environment';

/**
 * Tokens of the services both runtimes share. Each token carries its service's type
 * (`token<T>(name)`), so reads, bindings and fakes are type-checked. The browser's own tokens
 * are in src/app/tokens.ts, the server's in src/server/tokens.ts; both re-export these.
 */
export { Clock, Logger } from './services';
export const EventBus = token<EventBusService>('EventBus');
export const Environment = token<EnvironmentInfo>('Environment');
