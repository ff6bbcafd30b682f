/**
 * The page's comparison results, kept on the server (issue 25, big results): the whole result is
 * stored in the owner's file store, the page gets a summary and the first page of rows, asks for
 * further pages (sorted here, over every row) and downloads files built here from the stored
 * result. Every read goes through the file store, which answers only the owner.
 */
import { HttpError, type FileStore } from '../../src/server';
import type { ComparisonResult, ComparisonSide } from './engine/compare';
import { exportSideStream, type ExportFormat, type ExportTableName } from './export-side';
import {
  PAGE_SIZE,
  SORT_VALUES,
  sortedOrder,
  type PagedComparison,
  type PagedSide,
  type RowTable,
  type RowsPage,
  type SideName,
  type SortDirection,
} from './paged';

/** The file-store bucket of kept results and their downloads. */
export const RESULT_BUCKET = 'reconciliation';
/** A kept result (JSON) or a download may be this large. */
const MAX_BYTES = 512 * 1024 * 1024;
/** Parsed results kept in memory (the ones being paged through right now). */
const CACHED_RESULTS = 4;

const GONE = 'This result is no longer kept on the server: press Test Configuration again to see it.';

interface Cached {
  result: ComparisonResult;
  /** sorted orders already computed, by side, table, column and direction */
  orders: Map<string, Uint32Array>;
}

function pagedSide(side: ComparisonSide): PagedSide {
  const { vendors, ...metadata } = side.metadata;
  return {
    metadata: { ...metadata, vendor_count: Array.isArray(vendors) ? vendors.length : 0 },
    emails: side.emails,
    discrepancy_count: side.discrepencies.length,
    unmatched_count: side.unmatched_records.length,
    first: { discrepancies: side.discrepencies.slice(0, PAGE_SIZE), unmatched: side.unmatched_records.slice(0, PAGE_SIZE) },
  };
}

export class ResultStore {
  private readonly cache = new Map<string, Cached>();
  /** each owner's latest kept result and its built downloads: a new result replaces them */
  private readonly latest = new Map<number, { id: string; downloads: Map<string, string> }>();

  constructor(private readonly files: FileStore) {}

  /** Keeps the result for its owner (replacing the owner's previous one) and answers its paged view. */
  async keep(owner: number, result: ComparisonResult): Promise<PagedComparison> {
    const stored = await this.files.put(owner, Buffer.from(JSON.stringify(result), 'utf8'), {
      originalName: 'reconciliation-result.txt',
      allowed: ['txt'],
      maxBytes: MAX_BYTES,
      bucket: RESULT_BUCKET,
    });
    const previous = this.latest.get(owner);
    if (previous) {
      this.cache.delete(`${owner}/${previous.id}`);
      for (const key of [previous.id, ...previous.downloads.values()]) await this.files.delete(owner, RESULT_BUCKET, key).catch(() => undefined);
    }
    this.latest.set(owner, { id: stored.key, downloads: new Map() });
    this.remember(`${owner}/${stored.key}`, { result, orders: new Map() });
    return { result_id: stored.key, page_size: PAGE_SIZE, default: pagedSide(result.default), custom_config: pagedSide(result.custom_config) };
  }

  private remember(key: string, entry: Cached) {
    this.cache.delete(key);
    this.cache.set(key, entry);
    while (this.cache.size > CACHED_RESULTS) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** The owner's kept result; 404 with a sentence when it is not theirs or no longer kept. */
  private async load(owner: number, id: string): Promise<Cached> {
    const key = `${owner}/${id}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.remember(key, hit);
      return hit;
    }
    let text: string;
    try {
      text = (await this.files.read(owner, RESULT_BUCKET, id)).toString('utf8');
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404 || (error as { statusCode?: number }).statusCode === 400) throw new HttpError(404, GONE);
      throw error;
    }
    const entry: Cached = { result: JSON.parse(text) as ComparisonResult, orders: new Map() };
    this.remember(key, entry);
    return entry;
  }

  /** One page of a table of a side, sorted on a column over every row when asked. */
  async rows(
    owner: number,
    id: string,
    q: { side: SideName; table: RowTable; offset: number; limit: number; sort?: string; direction?: SortDirection },
  ): Promise<RowsPage<unknown>> {
    const entry = await this.load(owner, id);
    const side = entry.result[q.side];
    const rows: readonly unknown[] = q.table === 'discrepancies' ? side.discrepencies : side.unmatched_records;
    const total = rows.length;
    const offset = Math.min(q.offset, total);
    const end = Math.min(total, offset + q.limit);
    if (!q.sort) return { total, offset, rows: rows.slice(offset, end) };
    const value = (SORT_VALUES[q.table] as Record<string, (r: unknown) => string | number | null | undefined>)[q.sort];
    if (!value) throw new HttpError(400, 'The table cannot be sorted on that column.');
    const direction = q.direction ?? 'ascending';
    const memo = `${q.side}/${q.table}/${q.sort}/${direction}`;
    let order = entry.orders.get(memo);
    if (!order) {
      order = sortedOrder(rows, value, direction);
      entry.orders.set(memo, order);
    }
    const page: unknown[] = [];
    for (let i = offset; i < end; i++) page.push(rows[order[i]]);
    return { total, offset, rows: page };
  }

  /**
   * A download of a side built from the kept result and streamed into the owner's file store
   * (once per result and file); the answer is the stored file, which the shared download link serves.
   */
  async download(owner: number, id: string, side: SideName, format: ExportFormat, table?: ExportTableName) {
    const entry = await this.load(owner, id);
    const variant = `${side}/${format}/${format === 'csv' ? (table ?? 'discrepancies') : 'all'}`;
    const latest = this.latest.get(owner);
    const built = latest?.id === id ? latest.downloads.get(variant) : undefined;
    if (built) {
      const meta = await this.files.stat(owner, RESULT_BUCKET, built).catch(() => undefined);
      if (meta) return meta;
    }
    const file = exportSideStream(entry.result[side], side, format, table);
    const stored = await this.files.put(owner, file.stream, { originalName: file.fileName, allowed: [format], maxBytes: MAX_BYTES, bucket: RESULT_BUCKET });
    if (latest?.id === id) latest.downloads.set(variant, stored.key);
    return stored;
  }
}
