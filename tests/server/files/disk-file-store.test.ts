import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DamagedFileError,
  DiskFileStore,
  EmptyFileError,
  FileNotFoundError,
  FileTooLargeError,
  ImageTooLargeError,
  InvalidFileRequestError,
  UnsupportedFileTypeError,
  xmlRootName,
  type FileKind,
} from '../../../src/server/files';
import { ALL_FILE_KINDS } from '../../../src/server/files/file-kinds';
import { CSV, DOCX_LIKE_ZIP, JPEG, PDF, TXT, XLSX, jpegClaiming, png } from './samples';

const MB = 1024 * 1024;
let root: string;
let store: DiskFileStore;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'filestore-'));
  store = new DiskFileStore(path.join(root, 'files'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const put = (source: Buffer | Readable, allowed: FileKind[], extra: Partial<{ originalName: string; maxBytes: number; bucket: string }> = {}) =>
  store.put(7, source, { originalName: 'upload.bin', allowed, maxBytes: 10 * MB, ...extra });

/** Every file under the store's root, relative, excluding folders. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('accepting each kind by its content', () => {
  it.each<[string, Buffer, FileKind, string]>([
    ['PDF', PDF, 'pdf', 'application/pdf'],
    ['PNG', png(3, 2), 'png', 'image/png'],
    ['JPEG', JPEG, 'jpeg', 'image/jpeg'],
    ['XLSX', XLSX, 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['CSV', CSV, 'csv', 'text/csv; charset=utf-8'],
    ['TXT', TXT, 'txt', 'text/plain; charset=utf-8'],
  ])('stores a %s and reads it back', async (_label, content, kind, mime) => {
    const meta = await put(content, ['pdf', 'png', 'jpeg', 'xlsx', 'csv', 'txt'], { originalName: 'whatever.name' });
    expect(meta).toMatchObject({ bucket: 'uploads', kind, mime, size: content.length, originalName: 'whatever.name' });
    expect(meta.key).toMatch(/^[0-9a-f-]{36}\.[a-z]+$/);
    expect(await store.read(7, meta.bucket, meta.key)).toEqual(content);
    expect(await store.stat(7, meta.bucket, meta.key)).toEqual(meta);
  });

  it('records image dimensions', async () => {
    expect(await put(png(3, 2), ['png'])).toMatchObject({ width: 3, height: 2 });
    expect(await put(JPEG, ['jpeg'])).toMatchObject({ width: 2, height: 2 });
  });

  it('accepts a readable stream delivered in small chunks', async () => {
    const chunks = Array.from({ length: Math.ceil(PDF.length / 7) }, (_, i) => PDF.subarray(i * 7, i * 7 + 7));
    const meta = await put(Readable.from(chunks), ['pdf']);
    expect(await store.read(7, meta.bucket, meta.key)).toEqual(PDF);
  });

  it('a single-column text file is a CSV when only CSV is allowed, and TXT when both are', async () => {
    const oneColumn = Buffer.from('vendor\nAcme\nGlobex\n');
    expect((await put(oneColumn, ['csv'])).kind).toBe('csv');
    expect((await put(oneColumn, ['csv', 'txt'])).kind).toBe('txt');
    expect((await put(CSV, ['csv', 'txt'])).kind).toBe('csv');
  });
});

describe('refusing by content, whatever the name says', () => {
  it('a PNG renamed .pdf is refused when only PDF is allowed, naming what was allowed', async () => {
    const attempt = put(png(3, 2), ['pdf'], { originalName: 'invoice.pdf' });
    await expect(attempt).rejects.toThrow(UnsupportedFileTypeError);
    await expect(put(png(3, 2), ['pdf', 'png', 'jpeg'].slice(0, 1) as FileKind[])).rejects.toThrow(/not a PDF file/);
    await expect(put(TXT, ['pdf', 'png', 'jpeg'])).rejects.toThrow('The uploaded file is not a PDF, PNG or JPEG file');
  });

  it('a zip without xl/workbook.xml is not an XLSX', async () => {
    await expect(put(DOCX_LIKE_ZIP, ['xlsx'], { originalName: 'book.xlsx' })).rejects.toThrow(/not an XLSX file.*without an Excel workbook/);
  });

  it('a broken zip is reported as damaged', async () => {
    await expect(put(XLSX.subarray(0, 40), ['xlsx'])).rejects.toThrow(DamagedFileError);
  });

  it('text with a NUL byte is refused as binary data, and a program renamed .pdf or .csv is called what it looks like', async () => {
    await expect(put(Buffer.from('a,b\n1,\u00002\n'), ['csv'])).rejects.toThrow('The uploaded file is not a CSV file (it holds binary data, not text).');
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64), Buffer.from('This program cannot be run in DOS mode.')]);
    await expect(put(exe, ['pdf'], { originalName: 'invoice.pdf' })).rejects.toThrow('The uploaded file is not a PDF file (it looks like a Windows program).');
    await expect(put(exe, ['csv', 'txt'], { originalName: 'data.csv' })).rejects.toThrow(
      'The uploaded file is not a CSV or text file (it looks like a Windows program).',
    );
  });

  it('invalid UTF-8 is refused, including a sequence cut off at the end', async () => {
    await expect(put(Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0xc3, 0x28]), ['csv', 'txt'])).rejects.toThrow(/not a CSV or text file/);
    await expect(put(Buffer.from([0x61, 0x62, 0xe2, 0x82]), ['txt'])).rejects.toThrow(UnsupportedFileTypeError);
  });

  it('a PDF is not accepted as text and text is not accepted as an image', async () => {
    await expect(put(PDF, ['csv', 'txt'])).rejects.toThrow(/it is a PDF/);
    await expect(put(CSV, ['png', 'jpeg'])).rejects.toThrow(/not a PNG or JPEG file/);
  });

  it('an image with a truncated header is damaged', async () => {
    await expect(put(png(3, 2).subarray(0, 12), ['png'])).rejects.toThrow(DamagedFileError);
  });
});

describe('XML e-invoices', () => {
  const UBL = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/xrechnung-01.21a-ubl.xml'));
  const CII = readFileSync(path.join(__dirname, '../../fixtures/e-invoices/xrechnung-01.21a-cii.xml'));
  const RSS = Buffer.from('<?xml version="1.0"?>\n<!-- feed -->\n<rss version="2.0"><channel><title>News</title></channel></rss>\n');

  it('are of kind xml by their root element (UBL Invoice, CII CrossIndustryInvoice), stored as application/xml', async () => {
    for (const xml of [UBL, CII]) {
      const meta = await put(xml, ['pdf', 'png', 'jpeg', 'xml'], { originalName: 'rechnung.xml' });
      expect(meta).toMatchObject({ kind: 'xml', mime: 'application/xml', size: xml.length });
      expect(meta.key).toMatch(/\.xml$/);
    }
    // where every kind is taken (an e-mail's attachments, a webhook's files) an e-invoice is xml, other XML is text
    expect((await put(UBL, ALL_FILE_KINDS as FileKind[])).kind).toBe('xml');
    expect((await put(RSS, ALL_FILE_KINDS as FileKind[])).kind).toBe('txt');
  });

  it('other XML is refused where only documents and e-invoices are taken, naming its root; an e-invoice is refused where XML is not taken', async () => {
    await expect(put(RSS, ['pdf', 'png', 'jpeg', 'xml'])).rejects.toThrow(
      'The uploaded file is not a PDF, PNG, JPEG or XML e-invoice file (it is XML, but its root element <rss> is not a UBL Invoice or CreditNote, nor a Cross Industry Invoice).',
    );
    await expect(put(UBL, ['pdf', 'png', 'jpeg'])).rejects.toThrow('The uploaded file is not a PDF, PNG or JPEG file (it is plain text).');
    await expect(put(Buffer.from('Invoice 42, total 10.00'), ['pdf', 'xml'])).rejects.toThrow('(it is plain text)');
  });

  it('finds the root past a byte-order mark, the declaration, comments, processing instructions and a doctype', () => {
    expect(
      xmlRootName('\uFEFF<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- c -->\n<!DOCTYPE x>\n<rsm:CrossIndustryInvoice xmlns:rsm="u">'),
    ).toBe('CrossIndustryInvoice');
    expect(xmlRootName('  <Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">')).toBe('Invoice');
    expect(xmlRootName('Invoice <b>')).toBeNull();
  });
});

describe('pixel bombs', () => {
  it('refuses a PNG header claiming 10000×10000 before decoding anything', async () => {
    const bomb = png(10_000, 10_000, true);
    expect(bomb.length).toBeLessThan(64);
    await expect(put(bomb, ['png'])).rejects.toThrow(ImageTooLargeError);
    await expect(put(bomb, ['png'])).rejects.toThrow(/10000×10000 pixels \(100\.0 megapixels\); the limit is 40 megapixels/);
  });

  it('refuses a JPEG whose frame header claims 9000×5000 and accepts one just under the limit', async () => {
    await expect(put(jpegClaiming(9000, 5000), ['jpeg'])).rejects.toThrow(ImageTooLargeError);
    expect((await put(jpegClaiming(8000, 5000), ['jpeg'])).width).toBe(8000);
  });

  it('leaves nothing on disk after a refusal', async () => {
    await expect(put(png(10_000, 10_000, true), ['png'])).rejects.toThrow();
    expect(filesUnder(path.join(root, 'files'))).toEqual([]);
  });
});

describe('size limits', () => {
  it('aborts an oversize stream, deletes the partial file and names the limit in MB', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 0x61));
      },
    });
    const attempt = store.put(7, endless, { originalName: 'big.txt', allowed: ['txt'], maxBytes: 1 * MB });
    await expect(attempt).rejects.toThrow(FileTooLargeError);
    await expect(attempt).rejects.toThrow('The file is larger than the 1 MB limit.');
    expect(produced).toBeLessThan(3 * MB); // stopped early, not read to the end
    expect(endless.destroyed).toBe(true);
    expect(filesUnder(path.join(root, 'files'))).toEqual([]);
  });

  it('accepts a file of exactly the limit and refuses one byte more', async () => {
    const limit = 1000;
    await expect(put(Buffer.alloc(limit, 0x61), ['txt'], { maxBytes: limit })).resolves.toMatchObject({ size: limit });
    await expect(put(Buffer.alloc(limit + 1, 0x61), ['txt'], { maxBytes: limit })).rejects.toThrow(FileTooLargeError);
  });

  it('refuses an empty file', async () => {
    await expect(put(Buffer.alloc(0), ['txt'])).rejects.toThrow(EmptyFileError);
    await expect(put(Readable.from([]), ['txt'])).rejects.toThrow('The uploaded file is empty.');
  });
});

describe('names and keys', () => {
  it("stores '../../etc/passwd' safely: the key is random and the name is display-only", async () => {
    const meta = await put(TXT, ['txt'], { originalName: '../../etc/passwd' });
    expect(meta.originalName).toBe('passwd');
    expect(meta.key).not.toContain('passwd');
    const files = filesUnder(root);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f.startsWith(path.join('files', 'uploads', '7') + path.sep)).toBe(true);
  });

  it('sanitises control characters, bidi overrides, Windows paths and leading dots', async () => {
    expect((await put(TXT, ['txt'], { originalName: 'C:\\Users\\x\\..\\report\u202Efdp.txt' })).originalName).toBe('reportfdp.txt');
    expect((await put(TXT, ['txt'], { originalName: '..hidden\u0000name' })).originalName).toBe('hiddenname');
    expect((await put(TXT, ['txt'], { originalName: '../..' })).originalName).toBe('file');
  });

  it('refuses path-like keys and buckets as not found', async () => {
    await expect(store.read(7, 'uploads', '../../etc/passwd')).rejects.toThrow(FileNotFoundError);
    await expect(store.read(7, '..', 'x')).rejects.toThrow(FileNotFoundError);
    await expect(put(TXT, ['txt'], { bucket: '../evil' })).rejects.toThrow(InvalidFileRequestError);
  });

  it('uses a named bucket', async () => {
    const meta = await put(TXT, ['txt'], { bucket: 'invoices' });
    expect(meta.bucket).toBe('invoices');
    await expect(store.read(7, 'uploads', meta.key)).rejects.toThrow(FileNotFoundError);
    expect(await store.read(7, 'invoices', meta.key)).toEqual(TXT);
  });
});

describe('owners', () => {
  it("another owner's key is not found, for every operation", async () => {
    const meta = await put(TXT, ['txt']);
    await expect(store.read(8, meta.bucket, meta.key)).rejects.toThrow(FileNotFoundError);
    await expect(store.open(8, meta.bucket, meta.key)).rejects.toThrow(FileNotFoundError);
    await expect(store.stat(8, meta.bucket, meta.key)).rejects.toThrow(FileNotFoundError);
    await expect(store.delete(8, meta.bucket, meta.key)).rejects.toThrow(FileNotFoundError);
    expect(await store.read(7, meta.bucket, meta.key)).toEqual(TXT);
  });

  it('an unknown key and a deleted key are not found', async () => {
    const meta = await put(TXT, ['txt']);
    await store.delete(7, meta.bucket, meta.key);
    await expect(store.read(7, meta.bucket, meta.key)).rejects.toThrow('The file was not found.');
    await expect(store.stat(7, 'uploads', '00000000-0000-4000-8000-000000000000.txt')).rejects.toThrow(FileNotFoundError);
  });

  it('open() streams the content with its metadata', async () => {
    const meta = await put(PDF, ['pdf']);
    const { stream, meta: opened } = await store.open(7, meta.bucket, meta.key);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PDF);
    expect(opened).toEqual(meta);
  });

  it('refuses a non-integer owner with a clear error', async () => {
    await expect(store.put(0, TXT, { originalName: 'a', allowed: ['txt'], maxBytes: 10 })).rejects.toThrow(/positive whole-number user id/);
    await expect(store.read(1.5, 'uploads', 'x')).rejects.toThrow(InvalidFileRequestError);
  });
});

describe('permissions', () => {
  it('creates folders 0700 and files 0600', async () => {
    const meta = await put(TXT, ['txt']);
    const mode = (p: string) => statSync(p).mode & 0o777;
    const files = path.join(root, 'files');
    expect(mode(files)).toBe(0o700);
    expect(mode(path.join(files, 'uploads'))).toBe(0o700);
    expect(mode(path.join(files, 'uploads', '7'))).toBe(0o700);
    expect(mode(path.join(files, '.tmp'))).toBe(0o700);
    expect(mode(path.join(files, 'uploads', '7', meta.key))).toBe(0o600);
    expect(mode(path.join(files, 'uploads', '7', meta.key + '.json'))).toBe(0o600);
  });
});

describe('bad arguments', () => {
  it('refuses a missing size limit or an empty allowed list', async () => {
    await expect(put(TXT, [], {})).rejects.toThrow(/at least one known kind/);
    await expect(put(TXT, ['txt'], { maxBytes: 0 })).rejects.toThrow(/positive whole number of bytes/);
    await expect(put(TXT, ['exe' as FileKind])).rejects.toThrow(InvalidFileRequestError);
    expect(() => new DiskFileStore('')).toThrow(/folder path/);
  });
});

describe('telling CSV from prose when both are allowed', () => {
  it.each([
    ['a,b,c\n1,2,3\n', true],
    ['name;amount\n"Smith; J.";12\n', true],
    ['id\tvalue\n1\t2\n', true],
    ['Dear team,\nthe invoice is attached, thanks.\n', false],
    ['Hello there.\nNo separators at all.\n', false],
    ['x,y\n1,2,3\n', false],
  ])('%j → %s', async (text, csv) => {
    const { looksDelimited } = await import('../../../src/server/files');
    expect(looksDelimited(text)).toBe(csv);
  });
});
