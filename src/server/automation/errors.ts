import { HttpError } from '../http/errors';

/** The spec's text for a step no plugin provides (section 8). */
export const CONNECTOR_NOT_FOUND = 'Connector not found.';

/**
 * A recipe names a trigger or action that no plugin contributes. The message is the spec's
 * 'Connector not found.' followed by the missing provider:action, so nothing pretends to run.
 */
export class ConnectorNotFoundError extends HttpError {
  constructor(readonly missing: string[]) {
    super(409, `${CONNECTOR_NOT_FOUND} This workflow needs ${missing.join(', ')}, which is not installed.`, { missing });
    this.name = 'ConnectorNotFoundError';
  }
}

/** A step ran past its time-out; it is retried like any other failure. */
export class StepTimeoutError extends Error {
  constructor(
    readonly stepName: string,
    readonly timeoutMs: number,
  ) {
    super(`The step "${stepName}" took longer than ${formatDuration(timeoutMs)} and was stopped.`);
    this.name = 'StepTimeoutError';
  }
}

/**
 * Thrown by an action when trying again cannot help (bad input, a refused request): the step
 * fails at once, without using its remaining tries.
 */
export class PermanentStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentStepError';
  }
}

/** A step's output too big to checkpoint (files belong in the FileStore, not in the output). */
export class OutputTooLargeError extends PermanentStepError {
  constructor(bytes: number, limit: number) {
    super(
      `The step's output is ${Math.ceil(bytes / 1024)} KB, more than the ${Math.floor(limit / 1024)} KB a step may keep; store files in the file store and return their references.`,
    );
    this.name = 'OutputTooLargeError';
  }
}

/** "60 s", "250 ms", "5 min" */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}
