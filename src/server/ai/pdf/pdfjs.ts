import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentReadError } from './errors';

// pdfjs-dist ships only ES modules. The server code is compiled to CommonJS (tsx, Jest with swc),
// which would turn a plain `import()` into `require()` and fail; a Function-built import stays a
// real dynamic import (Jest supports it under --experimental-vm-modules).
const dynamicImport = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfjsModule['getDocument']>['promise']>;

let loaded: Promise<PdfjsModule> | undefined;

/**
 * The built-ins whose existing members the polyfills bundled in pdfjs's legacy build replace
 * (core-js: JSON.stringify and JSON.parse, 18× slower and recursive, Array.prototype.push, ...).
 */
function builtins(): object[] {
  const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
  return [
    globalThis,
    JSON,
    Object,
    Array,
    Array.prototype,
    Promise,
    Promise.prototype,
    Map,
    Map.prototype,
    Set,
    Set.prototype,
    Uint8Array,
    Uint8Array.prototype,
    ArrayBuffer,
    ArrayBuffer.prototype,
    String,
    String.prototype,
    Math,
    Reflect,
    Error,
    iteratorPrototype,
  ];
}

/**
 * Runs `load` and then puts back every built-in member it replaced, so loading pdfjs patches no
 * global: members it only adds (Promise.withResolvers, ...) stay, since pdfjs uses them on Node 20.
 * The server loads pdfjs only in its bounded workers (read-pdf.ts; document search reads through it
 * too, and openPdf is not on src/server's public face); this keeps the callers that still open PDFs
 * in their own thread safe: the tests' invoice renderer (tests/support/invoices/render.ts).
 */
async function keepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const saved = builtins().map((o) => [o, Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)!] as const)] as const);
  try {
    return await load();
  } finally {
    for (const [o, members] of saved) {
      for (const [k, before] of members) {
        const now = Object.getOwnPropertyDescriptor(o, k);
        const same = now && Object.is(now.value, before.value) && now.get === before.get && now.set === before.set;
        if (!same && before.configurable) Object.defineProperty(o, k, before);
      }
    }
  }
}

/** Loads pdfjs-dist's Node build once per process. */
export function loadPdfjs(): Promise<PdfjsModule> {
  loaded ??= keepingBuiltins(async () => {
    // pdfjs runs a "fake worker" in Node, loaded by a dynamic import of its own unless
    // globalThis.pdfjsWorker already holds it: load it here, first, so that the only dynamic
    // imports are these two (under Jest's vm modules pdfjs's own import() can fail to link)
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= await dynamicImport('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return (await dynamicImport('pdfjs-dist/legacy/build/pdf.mjs')) as PdfjsModule;
  });
  return loaded;
}

function standardFontDataUrl(): string {
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  // pdfjs reads these with fs in Node: a plain folder path with a trailing slash.
  return path.join(root, 'standard_fonts') + path.sep;
}

/**
 * Opens a PDF with pdfjs and turns its failures into readable DocumentReadErrors: a password
 * (encrypted) PDF and a corrupt or truncated file are refused with a sentence a user understands.
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  if (bytes.length === 0) throw new DocumentReadError('The PDF file is empty.', 'empty');
  const header = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!header.includes('%PDF-')) {
    throw new DocumentReadError('The file is not a PDF (no PDF header found).', 'corrupt');
  }
  const pdfjs = await loadPdfjs();
  // pdfjs takes ownership of (and may detach) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: standardFontDataUrl(),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new DocumentReadError('The PDF is password-protected; remove the password and upload it again.', 'encrypted');
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new DocumentReadError(`The PDF could not be read; the file looks damaged (${detail}).`, 'corrupt');
  }
}

/** The file URL of pdfjs' standard fonts folder (for callers that want a URL form). */
export function standardFontsUrl(): string {
  return pathToFileURL(standardFontDataUrl()).href;
}
