import { token } from './di';

/** A clock, so tests can fix the time. One definition for both runtimes. */
export interface Clock {
  now(): number;
}
export const Clock = token<Clock>('Clock');
export const systemClock: Clock = { now: () => Date.now() };

/** The logging calls both runtimes make (pino's shape on the server, the console in the browser). */
export interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}
export const Logger = token<Logger>('Logger');
