import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, open, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContentProbe, DEFAULT_MAX_IMAGE_PIXELS, detectKind } from './content-probe';
import { EmptyFileError, FileNotFoundError, FileTooLargeError, InvalidFileRequestError } from './errors';
import { FILE_KINDS, isFileKind } from './file-kinds';
import { DEFAULT_BUCKET, type FileStore, type PutOptions, type StoredFile } from './file-store';
import { sanitiseFileName } from './sanitise-name';

const BUCKET_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A stored file's key: a random UUID and the extension of its kind (FILE_KINDS). */
const KEY_RE = new RegExp(
  `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(?:${Object.values(FILE_KINDS)
    .map((k) => k.extension)
    .join('|')})$`,
);
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Files in a folder (under DATA_DIR): `<root>/<bucket>/<owner>/<uuid>.<ext>` plus a
 * `<uuid>.<ext>.json` metadata sidecar. Folders are 0700 and files 0600. An upload is written to
 * `<root>/.tmp` while its bytes are counted and inspected, and renamed into place only once it
 * has passed every check, so a refused upload leaves nothing behind.
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;

  constructor(rootDir: string) {
    if (typeof rootDir !== 'string' || rootDir.trim() === '') {
      throw new InvalidFileRequestError('The file store needs a folder path (DATA_DIR).');
    }
    this.root = path.resolve(rootDir);
  }

  /** Streams an upload to disk, enforcing the size limit, the allowed kinds and the pixel limit. */
  async put(owner: number, source: Readable | Buffer, opts: PutOptions): Promise<StoredFile> {
    checkOwner(owner);
    const bucket = opts.bucket ?? DEFAULT_BUCKET;
    if (!BUCKET_RE.test(bucket)) throw new InvalidFileRequestError(`"${bucket}" is not a valid bucket name.`);
    if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes <= 0) {
      throw new InvalidFileRequestError('The upload size limit must be a positive whole number of bytes.');
    }
    if (!Array.isArray(opts.allowed) || opts.allowed.length === 0 || !opts.allowed.every(isFileKind)) {
      throw new InvalidFileRequestError('The list of allowed file kinds must name at least one known kind.');
    }
    if (!Buffer.isBuffer(source) && !(source instanceof Readable)) {
      throw new InvalidFileRequestError('The upload must be a stream or a buffer.');
    }

    const tmpDir = path.join(this.root, '.tmp');
    await this.ensureDir(tmpDir);
    const tmpPath = path.join(tmpDir, `${randomUUID()}.part`);
    const probe = new ContentProbe();
    const hash = createHash('sha256');
    const maxBytes = opts.maxBytes;

    const guard = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (probe.size + chunk.length > maxBytes) {
          done(new FileTooLargeError(maxBytes));
          return;
        }
        probe.update(chunk);
        hash.update(chunk);
        done(null, chunk);
      },
    });

    try {
      if (Buffer.isBuffer(source) && source.length > maxBytes) throw new FileTooLargeError(maxBytes);
      const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
      await pipeline(input, guard, createWriteStream(tmpPath, { flags: 'wx', mode: FILE_MODE }));
      probe.finish();
      if (probe.size === 0) throw new EmptyFileError();

      const detected = await detectKind(probe, () => readFile(tmpPath), opts.allowed, opts.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS);
      const info = FILE_KINDS[detected.kind];
      const key = `${randomUUID()}.${info.extension}`;
      const meta: StoredFile & { owner: number } = {
        owner,
        bucket,
        key,
        kind: detected.kind,
        size: probe.size,
        originalName: sanitiseFileName(opts.originalName),
        mime: info.mime,
        createdAt: new Date().toISOString(),
        sha256: hash.digest('hex'),
        ...(detected.width ? { width: detected.width, height: detected.height } : {}),
      };
      const dir = path.join(this.root, bucket, String(owner));
      await this.ensureDir(path.join(this.root, bucket));
      await this.ensureDir(dir);
      await writeFile(path.join(dir, `${key}.json`), JSON.stringify(meta), { flag: 'wx', mode: FILE_MODE });
      await rename(tmpPath, path.join(dir, key));
      return publicMeta(meta);
    } catch (error) {
      await unlink(tmpPath).catch(() => undefined);
      if (!Buffer.isBuffer(source) && !source.destroyed) source.destroy();
      throw error;
    }
  }

  /** Opens the owner's file for streaming; the stream is opened before returning, so absence throws here. */
  async open(owner: number, bucket: string, key: string): Promise<{ stream: Readable; meta: StoredFile }> {
    const meta = await this.stat(owner, bucket, key);
    try {
      const handle = await open(this.filePath(owner, bucket, key), 'r');
      return { stream: handle.createReadStream(), meta };
    } catch (error) {
      throw notFoundFor(error);
    }
  }

  /** Reads the owner's file into memory. */
  async read(owner: number, bucket: string, key: string): Promise<Buffer> {
    await this.stat(owner, bucket, key);
    try {
      return await readFile(this.filePath(owner, bucket, key));
    } catch (error) {
      throw notFoundFor(error);
    }
  }

  /** The owner's file metadata; FileNotFoundError for a missing file or someone else's. */
  async stat(owner: number, bucket: string, key: string): Promise<StoredFile> {
    checkOwner(owner);
    if (typeof bucket !== 'string' || typeof key !== 'string' || !BUCKET_RE.test(bucket) || !KEY_RE.test(key)) {
      throw new FileNotFoundError();
    }
    let raw: string;
    try {
      raw = await readFile(this.filePath(owner, bucket, key) + '.json', 'utf8');
    } catch (error) {
      throw notFoundFor(error);
    }
    const meta = JSON.parse(raw) as StoredFile & { owner: number };
    if (meta.owner !== owner || meta.bucket !== bucket || meta.key !== key) throw new FileNotFoundError();
    return publicMeta(meta);
  }

  /** Deletes the owner's file and its sidecar. */
  async delete(owner: number, bucket: string, key: string): Promise<void> {
    await this.stat(owner, bucket, key);
    const file = this.filePath(owner, bucket, key);
    await rm(file, { force: true });
    await rm(file + '.json', { force: true });
  }

  private filePath(owner: number, bucket: string, key: string): string {
    return path.join(this.root, bucket, String(owner), key);
  }

  private async ensureDir(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    await chmod(dir, DIR_MODE);
  }
}

function checkOwner(owner: number): void {
  if (!Number.isSafeInteger(owner) || owner <= 0) {
    throw new InvalidFileRequestError('A file owner must be a positive whole-number user id.');
  }
}

function notFoundFor(error: unknown): Error {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileNotFoundError();
  return error as Error;
}

function publicMeta(meta: StoredFile & { owner?: number }): StoredFile {
  const { owner: _owner, ...rest } = meta;
  return rest;
}
