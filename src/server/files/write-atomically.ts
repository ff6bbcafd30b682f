import { renameSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/**
 * Writes `file` aside (its name with this process's and thread's ids) and renames it into place:
 * a reader in another process or thread finds the old file or the new one, never half of one.
 */
export function writeFileAtomically(file: string, data: Uint8Array | string, mode?: number): void {
  const aside = `${file}.${process.pid}.${threadId}.partial`;
  writeFileSync(aside, data, mode === undefined ? undefined : { mode });
  renameSync(aside, file);
}
