import type { Subscription } from 'rxjs';
import type { EventBus } from '../../src/core';
import type { FileStore } from '../../src/server';
import { documentText, SEARCHABLE_KINDS, type PdfTextReader } from './document-text';
import type { DocumentIndex } from './index-service';

export interface IndexerLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
}

/**
 * Keeps the index up to date from domain events: 'document/text-extracted' (extraction, OCR)
 * is indexed as given; 'file/stored' of a text, PDF or XML e-invoice file is read from the file
 * store and indexed. Failures are logged, never thrown: an upload succeeds even if its text cannot be read.
 */
export class DocumentIndexer {
  private subscriptions: Subscription[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly index: DocumentIndex,
    private readonly files: FileStore,
    private readonly readPdf: PdfTextReader,
    private readonly log: IndexerLogger,
  ) {}

  /** Subscribes to the bus. */
  start(events: Pick<EventBus, 'on'>): void {
    this.subscriptions.push(
      events.on('document/text-extracted').subscribe((e) => this.track('document/text-extracted', e, () => this.index.index(e))),
      events.on('file/stored').subscribe((e) => {
        if (!(SEARCHABLE_KINDS as readonly string[]).includes(e.kind)) return;
        this.track('file/stored', e, async () => {
          const bytes = await this.files.read(e.owner, e.bucket, e.key);
          const text = await documentText(e.kind as 'txt' | 'pdf' | 'xml', bytes, this.readPdf, e.name);
          await this.index.index({ owner: e.owner, bucket: e.bucket, key: e.key, name: e.name, text });
        });
      }),
    );
  }

  /** Unsubscribes and waits for the documents being indexed. */
  async stop(): Promise<void> {
    this.subscriptions.forEach((s) => s.unsubscribe());
    this.subscriptions = [];
    await this.settled();
  }

  /** Resolves once every document handed over so far is indexed (or has failed). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(event: string, e: { owner: number; bucket: string; key: string }, work: () => Promise<unknown>): void {
    const job: Promise<void> = work()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.log.warn(
          { event, owner: e.owner, bucket: e.bucket, key: e.key, err: error instanceof Error ? error.message : String(error) },
          'Document not indexed',
        );
      })
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }
}
