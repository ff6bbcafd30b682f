import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { writeFileAtomically } from '../files/write-atomically';

/**
 * An initialised, empty PGlite cluster as a tarball, for the test databases: loading it takes
 * about 1 s where PGlite's initdb takes 3 to 4, and a test run opens hundreds of databases. Made
 * once per PGlite version and settings (in the system's temp folder, shared by the test workers
 * and by later runs) and read once per test file. Part of the server's testing face.
 */
let cached: Promise<Blob> | undefined;

/**
 * The cluster's settings, for a test run's hundreds of starts. PostgreSQL's default 128 MB of
 * shared buffers is allocated and touched at every start, where a test database holds a few
 * hundred rows: with 16 MB a start took 0.43 s where it took 1.0 s (42,000 page faults to 9,000).
 * WAL segments of 1 MB, not 16, make the tarball 31 MB, not 40 (each start copies it into
 * PGlite's file system): 0.31 s to 0.35 s for a start and a first table.
 */
const SETTINGS = 'shared_buffers = 16MB';
const INITDB = ['--wal-segsize=1'];
/** In the tarball's name: a template made with other settings is never taken for this one. */
const SETTINGS_TAG = createHash('sha1')
  .update(JSON.stringify([SETTINGS, INITDB]))
  .digest('hex')
  .slice(0, 8);

function pgliteVersion(): string {
  const entry = require.resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

async function make(file: string): Promise<Uint8Array<ArrayBuffer>> {
  const pglite = await PGlite.create('memory://', { postgresqlconf: SETTINGS, initDbStartParams: INITDB });
  const tarball = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  await pglite.close();
  // another test worker never reads half a file
  writeFileAtomically(file, tarball, 0o600);
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
    const file = path.join(tmpdir(), `flowmatic-pglite-${pgliteVersion()}-${SETTINGS_TAG}-${process.getuid?.() ?? 'u'}.tar`);
    const tarball = existsSync(file) ? new Uint8Array(readFileSync(file)) : await make(file);
    return inMemoryBlob(tarball);
  })();
  return cached;
}
