import { unzipSync } from 'fflate';
import { imageSize } from 'image-size';
import { DamagedFileError, ImageTooLargeError, UnsupportedFileTypeError } from './errors';
import { describeKinds, FILE_KINDS, type FileKind } from './file-kinds';

/** How many leading bytes are kept for magic numbers and for guessing whether text is a CSV. */
const HEAD_BYTES = 64 * 1024;

/** Images with more pixels than this are refused before anything decodes them. */
export const DEFAULT_MAX_IMAGE_PIXELS = 40_000_000;

type Magic = 'pdf' | 'png' | 'jpeg' | 'zip';

/**
 * Watches the bytes of an upload as they stream past (no second read for text files): keeps the
 * first 64 KiB, and tracks whether the whole content is valid UTF-8 without NUL (zero) bytes.
 */
export class ContentProbe {
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private decoder: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  private nul = false;
  private utf8 = true;
  size = 0;

  /** Feeds the next chunk of the upload. */
  update(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(part);
      this.headLength += part.length;
    }
    if (this.decoder) {
      if (chunk.includes(0)) {
        this.nul = true;
        this.decoder = null;
        return;
      }
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.utf8 = false;
        this.decoder = null;
      }
    }
  }

  /** Call once after the last chunk: completes the UTF-8 check (a truncated sequence is invalid). */
  finish(): void {
    if (!this.decoder) return;
    try {
      this.decoder.decode();
    } catch {
      this.utf8 = false;
    }
    this.decoder = null;
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks, this.headLength);
  }

  /** True when every byte seen so far is valid UTF-8 and none is NUL. */
  get isText(): boolean {
    return this.utf8 && !this.nul;
  }

  get hasNul(): boolean {
    return this.nul;
  }
}

/** The binary format announced by the first bytes, or null if none of ours. */
export function magicOf(head: Buffer): Magic | null {
  if (head.length >= 5 && head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  return null;
}

/** Signatures of common files no upload takes, to tell the user what their file looks like. */
const OTHER_KINDS: Array<{ bytes: number[]; at?: number; what: string }> = [
  { bytes: [0x4d, 0x5a], what: 'it looks like a Windows program' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'it looks like a Linux program' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], what: 'it looks like a Mac program' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], what: 'it looks like a Mac or Java program' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: 'it looks like an older Microsoft Office file (.doc or .xls)' },
  { bytes: [0x1f, 0x8b], what: 'it looks like a compressed (gzip) archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'it looks like a RAR archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'it looks like a 7-Zip archive' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'it looks like a GIF image' },
  { bytes: [0x42, 0x4d], what: 'it looks like a BMP image' },
  { bytes: [0x57, 0x45, 0x42, 0x50], at: 8, what: 'it looks like a WebP image' },
  { bytes: [0x49, 0x44, 0x33], what: 'it looks like an MP3 recording' },
  { bytes: [0x66, 0x74, 0x79, 0x70], at: 4, what: 'it looks like a video or audio file' },
];

/** What a file of no accepted kind looks like, in the user's words ("it looks like a Windows program"), if known. */
export function looksLike(head: Buffer): string | null {
  for (const k of OTHER_KINDS) {
    const at = k.at ?? 0;
    if (head.length >= at + k.bytes.length && k.bytes.every((b, i) => head[at + i] === b)) return k.what;
  }
  return null;
}

/**
 * Lists the entry names of a zip archive from its central directory without inflating anything
 * (so a zip bomb costs nothing). Returns null when the archive cannot be read.
 */
export function zipEntryNames(data: Uint8Array): string[] | null {
  const names: string[] = [];
  try {
    unzipSync(data, {
      filter: (file) => {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    return null;
  }
  return names;
}

/**
 * Guesses whether UTF-8 text is delimited data rather than prose: the first lines (up to 20)
 * hold the same number of `,` `;` tab or `|` separators (quoted fields ignored), and the first
 * line reads like a header row — every field present and at most five words long.
 */
export function looksDelimited(sample: string, truncated = false): boolean {
  const all = sample.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (truncated) all.pop(); // the last line may be cut off
  const lines = all.filter((l) => l.trim() !== '').slice(0, 20);
  if (lines.length === 0) return false;
  const unquoted = lines.map((l) => l.replace(/"(?:[^"]|"")*"/g, '"q"'));
  return [',', ';', '\t', '|'].some((d) => {
    const counts = unquoted.map((l) => l.split(d).length - 1);
    if (counts[0] < 1 || !counts.every((c) => c === counts[0])) return false;
    const header = unquoted[0].split(d).map((f) => f.trim());
    return header.every((f) => f !== '' && f.split(/\s+/).length <= 5);
  });
}

/** Root elements of the XML e-invoice standards the invoice reader knows (UBL, CII, ZUGFeRD 1). */
export const E_INVOICE_ROOTS: readonly string[] = ['Invoice', 'CreditNote', 'CrossIndustryInvoice', 'CrossIndustryDocument'];

/**
 * The local name of the root element of text that starts as XML ("Invoice" of `<ubl:Invoice …>`,
 * after any declaration, comments and doctype), or null when the text does not start as XML.
 */
export function xmlRootName(text: string): string | null {
  const m = /^\uFEFF?\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<(?:[\w.-]+:)?([A-Za-z_][\w.-]*)/.exec(text);
  return m ? m[1] : null;
}

export interface Detected {
  kind: FileKind;
  width?: number;
  height?: number;
}

/**
 * Decides the kind of an upload from its content alone and checks it against `allowed`.
 * `loadWhole` is called only when the whole file is needed (the zip directory of an XLSX, the
 * dimensions of an image). Throws UnsupportedFileTypeError, DamagedFileError or ImageTooLargeError.
 */
export async function detectKind(
  probe: ContentProbe,
  loadWhole: () => Promise<Buffer>,
  allowed: readonly FileKind[],
  maxImagePixels = DEFAULT_MAX_IMAGE_PIXELS,
): Promise<Detected> {
  const allowedText = describeKinds(allowed);
  const head = probe.head;
  const magic = magicOf(head);
  const refuse = (what: string) => new UnsupportedFileTypeError(allowedText, what);

  if (magic === 'pdf') {
    if (!allowed.includes('pdf')) throw refuse('it is a PDF');
    return { kind: 'pdf' };
  }
  if (magic === 'png' || magic === 'jpeg') {
    if (!allowed.includes(magic)) throw refuse(`it is a ${FILE_KINDS[magic].label} image`);
    const whole = await loadWhole();
    let dims: { width?: number; height?: number };
    try {
      dims = imageSize(whole);
    } catch {
      throw new DamagedFileError(`a ${FILE_KINDS[magic].label} image`);
    }
    const { width, height } = dims;
    if (!width || !height) throw new DamagedFileError(`a ${FILE_KINDS[magic].label} image`);
    if (width * height > maxImagePixels) throw new ImageTooLargeError(width, height, maxImagePixels);
    return { kind: magic, width, height };
  }
  if (magic === 'zip') {
    if (!allowed.includes('xlsx')) throw refuse('it is a zip archive');
    const names = zipEntryNames(await loadWhole());
    if (!names) throw new DamagedFileError('a zip archive');
    if (!names.includes('xl/workbook.xml')) throw refuse('it is a zip archive without an Excel workbook');
    return { kind: 'xlsx' };
  }
  if (allowed.includes('xml') && probe.isText) {
    const root = xmlRootName(head.toString('utf8'));
    if (root && E_INVOICE_ROOTS.includes(root)) return { kind: 'xml' };
    // other XML is text where text is taken
    if (root && !allowed.includes('csv') && !allowed.includes('txt')) {
      throw refuse(`it is XML, but its root element <${root}> is not a UBL Invoice or CreditNote, nor a Cross Industry Invoice`);
    }
  }
  if (allowed.includes('csv') || allowed.includes('txt')) {
    if (probe.hasNul) throw refuse(looksLike(head) ?? 'it holds binary data, not text');
    if (!probe.isText) throw refuse('it is neither a known format nor valid UTF-8 text');
    if (allowed.includes('csv') && (!allowed.includes('txt') || looksDelimited(head.toString('utf8'), probe.size > head.length))) return { kind: 'csv' };
    return { kind: 'txt' };
  }
  throw refuse(probe.isText ? 'it is plain text' : (looksLike(head) ?? 'its content is not a recognised format'));
}
