import { ParseBudgetError, runBounded, type WorkerBudget } from '../../files/bounded-worker';

/** A document that cannot be read: corrupt, encrypted, empty or of an unsupported type. */
export class DocumentReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'corrupt' | 'encrypted' | 'empty' | 'unsupported' | 'too-large',
  ) {
    super(message);
    this.name = 'DocumentReadError';
  }
}

/**
 * Runs a document-reading task (an export of `file`) in a bounded worker: the task's own
 * DocumentReadErrors come back as they were raised, and running out of time or memory becomes a
 * DocumentReadError with the sentence given for it (too-large).
 */
export async function readInWorker<T>(
  file: string,
  task: string,
  input: unknown,
  overBudget: { time: string; memory: string },
  budget?: Partial<WorkerBudget>,
): Promise<T> {
  try {
    return await runBounded<T>(file, task, input, {
      budget,
      rethrow: (f) => (f.name === 'DocumentReadError' ? new DocumentReadError(f.message, (f.reason ?? 'corrupt') as DocumentReadError['reason']) : undefined),
    });
  } catch (error) {
    if (error instanceof ParseBudgetError) throw new DocumentReadError(overBudget[error.reason], 'too-large');
    throw error;
  }
}
