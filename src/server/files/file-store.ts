import type { Readable } from 'node:stream';
import type { FileKind } from './file-kinds';

/** What the store knows about a stored file. `originalName` is for display only, never a path. */
export interface StoredFile {
  bucket: string;
  key: string;
  kind: FileKind;
  size: number;
  /** The uploader's file name, sanitised; shown to people, never used to build a path. */
  originalName: string;
  mime: string;
  /** ISO 8601. */
  createdAt: string;
  /** Hex SHA-256 of the content. */
  sha256: string;
  /** Pixel size, for images. */
  width?: number;
  height?: number;
}

export interface PutOptions {
  originalName: string;
  /** The kinds this workflow accepts; the content decides which one the file is. */
  allowed: readonly FileKind[];
  /** Upload size limit in bytes (MAX_UPLOAD_MB). */
  maxBytes: number;
  /** Defaults to 'uploads'. Lower-case letters, digits and hyphens. */
  bucket?: string;
  /** Defaults to 40 million. */
  maxImagePixels?: number;
}

/**
 * Storage for user files. Every operation is scoped to an owner: another owner's key is
 * reported as not found, so existence never leaks. A disk folder implements it today; an object
 * store could tomorrow.
 */
export interface FileStore {
  /** Checks and stores an upload; throws a FileStoreError subclass with a readable message. */
  put(owner: number, source: Readable | Buffer, opts: PutOptions): Promise<StoredFile>;
  /** A stream of the content and its metadata; FileNotFoundError if absent or not the owner's. */
  open(owner: number, bucket: string, key: string): Promise<{ stream: Readable; meta: StoredFile }>;
  /** The whole content in memory. */
  read(owner: number, bucket: string, key: string): Promise<Buffer>;
  /** Metadata only. */
  stat(owner: number, bucket: string, key: string): Promise<StoredFile>;
  /** Removes the file and its metadata. */
  delete(owner: number, bucket: string, key: string): Promise<void>;
}

export const DEFAULT_BUCKET = 'uploads';
