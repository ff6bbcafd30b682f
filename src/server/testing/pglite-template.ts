import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * An initialised, empty PGlite cluster as a tarball, for the test databases: loading it takes
 * about 1 s where PGlite's initdb takes 3 to 4, and a test run opens hundreds of databases. Made
 * once per PGlite version (in the system's temp folder, shared by the test workers and by later
 * runs) and read once per test file. Part of the server's testing face.
 */
let cached: Promise<Blob> | undefined;

function pgliteVersion(): string {
  const entry = require.resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

async function make(file: string): Promise<Uint8Array<ArrayBuffer>> {
  const pglite = await PGlite.create('memory://');
  const tarball = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  await pglite.close();
  // written aside and renamed: another worker never reads half a file
  const aside = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(aside, tarball, { mode: 0o600 });
  renameSync(aside, file);
  return tarball;
}

/**
 * What PGlite reads of a Blob (its bytes and type), answered from memory: Node's Blob hands its
 * 40 MB over in small chunks, about 0.5 s each time a database is opened. PGlite only reads the
 * bytes (it untars them into its own file system), so every database shares the one copy.
 */
function inMemoryBlob(bytes: Uint8Array<ArrayBuffer>): Blob {
  return { type: '', size: bytes.byteLength, arrayBuffer: async () => bytes.buffer } as unknown as Blob;
}

export function pgliteTemplate(): Promise<Blob> {
  cached ??= (async () => {
    const file = path.join(tmpdir(), `flowmatic-pglite-${pgliteVersion()}-${process.getuid?.() ?? 'u'}.tar`);
    const tarball = existsSync(file) ? new Uint8Array(readFileSync(file)) : await make(file);
    return inMemoryBlob(tarball);
  })();
  return cached;
}
