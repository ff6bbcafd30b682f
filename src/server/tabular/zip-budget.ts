import { countInflated } from '../files/inflate-budget';

/**
 * Checks a ZIP container (XLSX, DOCX) against a budget before any library opens it: the entries'
 * declared sizes and compression ratios first (cheap), then the real sizes, by inflating each
 * entry in pieces and stopping as soon as the total passes the budget (a declared size can lie).
 * So a 300 KB file whose one cell inflates to 300 MB is refused after 64 MB of work, in bounded
 * memory: the inflated bytes are counted, never kept.
 */
export interface ZipBudget {
  /** Largest total of the entries once inflated. */
  maxExpandedBytes: number;
  /** Largest inflated/compressed ratio of an entry above 1 MB inflated. */
  maxRatio: number;
  /** Most entries the container may hold. */
  maxEntries: number;
}

export const XLSX_BUDGET: ZipBudget = { maxExpandedBytes: 64 * 1024 * 1024, maxRatio: 200, maxEntries: 2000 };

/** The container is over budget or not a readable ZIP. */
export class ZipBudgetError extends Error {
  constructor(
    readonly reason: 'expanded' | 'ratio' | 'entries' | 'damaged',
    readonly budget: ZipBudget,
  ) {
    super(`ZIP container over budget: ${reason}`);
    this.name = 'ZipBudgetError';
  }
}

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function entriesOf(zip: Buffer, budget: ZipBudget): Entry[] {
  // the end-of-central-directory record is in the last 64 KB + 22 bytes
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipBudgetError('damaged', budget);
  const count = zip.readUInt16LE(eocd + 10);
  if (count > budget.maxEntries) throw new ZipBudgetError('entries', budget);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new ZipBudgetError('damaged', budget);
    entries.push({
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Throws a ZipBudgetError when the container is over budget; returns the inflated total. */
export function checkZipBudget(bytes: Uint8Array, budget: ZipBudget = XLSX_BUDGET): number {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = entriesOf(zip, budget);
  let declared = 0;
  for (const e of entries) {
    declared += e.size;
    if (declared > budget.maxExpandedBytes) throw new ZipBudgetError('expanded', budget);
    if (e.size > 1024 * 1024 && e.size / Math.max(1, e.compressedSize) > budget.maxRatio) throw new ZipBudgetError('ratio', budget);
  }
  let total = 0;
  for (const e of entries) {
    const at = e.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== 0x04034b50) throw new ZipBudgetError('damaged', budget);
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const data = zip.subarray(start, Math.min(zip.length, start + e.compressedSize));
    if (e.method === 0) {
      total += data.length;
    } else if (e.method === 8) {
      countInflated(
        data,
        (n) => {
          total += n;
          if (total > budget.maxExpandedBytes) throw new ZipBudgetError('expanded', budget);
        },
        () => new ZipBudgetError('damaged', budget),
      );
    } else {
      throw new ZipBudgetError('damaged', budget);
    }
    if (total > budget.maxExpandedBytes) throw new ZipBudgetError('expanded', budget);
  }
  return total;
}
