import { HttpError } from '../http/errors';

/**
 * Errors raised by the file store. Each carries an HTTP `statusCode` and a sentence a user can
 * read, so a route can pass them straight to the client.
 */
export class FileStoreError extends HttpError {
  constructor(statusCode: number, message: string) {
    super(statusCode, message);
    this.name = new.target.name;
  }
}

/** The content is not one of the kinds the caller allowed (decided by content, never by name). */
export class UnsupportedFileTypeError extends FileStoreError {
  constructor(allowedDescription: string, detail?: string) {
    super(415, `The uploaded file is not ${allowedDescription} file${detail ? ` (${detail})` : ''}.`);
  }
}

/** The upload went past the size limit; the partial file has been deleted. */
export class FileTooLargeError extends FileStoreError {
  constructor(readonly maxBytes: number) {
    super(413, `The file is larger than the ${formatMegabytes(maxBytes)} MB limit.`);
  }
}

/** An image whose header claims more pixels than we are willing to decode (a "pixel bomb"). */
export class ImageTooLargeError extends FileStoreError {
  constructor(width: number, height: number, maxPixels: number) {
    super(413, `The image is ${width}×${height} pixels (${((width * height) / 1e6).toFixed(1)} megapixels); the limit is ${maxPixels / 1e6} megapixels.`);
  }
}

/** Zero bytes were received. */
export class EmptyFileError extends FileStoreError {
  constructor() {
    super(400, 'The uploaded file is empty.');
  }
}

/** The file claims a known type by its first bytes but its structure is broken. */
export class DamagedFileError extends FileStoreError {
  constructor(kindLabel: string) {
    super(415, `The file looks like ${kindLabel} but it is damaged or incomplete.`);
  }
}

/** No such file for this owner. Also raised for another owner's file, so existence never leaks. */
export class FileNotFoundError extends FileStoreError {
  constructor() {
    super(404, 'The file was not found.');
  }
}

/** A caller passed arguments the store cannot accept (a programming or configuration error). */
export class InvalidFileRequestError extends FileStoreError {
  constructor(message: string) {
    super(400, message);
  }
}

/** A download link that is malformed, tampered with or expired. */
export class InvalidDownloadLinkError extends FileStoreError {
  constructor(reason: 'malformed' | 'tampered' | 'expired') {
    super(reason === 'expired' ? 410 : 403, reason === 'expired' ? 'This download link has expired; ask for a new one.' : 'This download link is not valid.');
  }
}

/** Megabytes with at most one decimal, e.g. 10 or 0.5. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : String(Math.round(mb * 10) / 10);
}
