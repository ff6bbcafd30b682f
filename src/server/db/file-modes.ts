import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Folders the server creates or owns: owner only (rwx------). */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the server writes (database, WAL, outbox, uploads, keys): owner only (rw-------). */
export const PRIVATE_FILE_MODE = 0o600;
/** The umask that makes every new file 0600 and folder 0700, whoever writes it (PGlite included). */
export const PRIVATE_UMASK = 0o077;

/**
 * Makes new files of this process private (umask 077): PGlite writes its data and WAL with
 * 0666, which the umask turns into 0600. Returns the previous umask.
 */
export function usePrivateUmask(): number {
  return process.umask(PRIVATE_UMASK);
}

/**
 * Creates `dir` (0700) if needed and takes group and world access away from everything under it
 * that an older version left readable: folders 0700, files 0600. Symbolic links are not followed.
 * Returns how many entries had their mode changed.
 */
export function secureDirectory(dir: string): number {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  let changed = 0;
  const fix = (p: string, want: number, mode: number) => {
    if ((mode & 0o777) !== want) {
      chmodSync(p, want);
      changed += 1;
    }
  };
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const st = lstatSync(current);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      fix(current, PRIVATE_DIR_MODE, st.mode);
      for (const name of readdirSync(current)) stack.push(path.join(current, name));
    } else if (st.isFile()) {
      fix(current, PRIVATE_FILE_MODE, st.mode);
    }
  }
  return changed;
}
