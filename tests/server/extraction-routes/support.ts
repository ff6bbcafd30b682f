import { randomBytes } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { buildPage } from '../../../src/server/ai/layout/group';
import type { LayoutWord } from '../../../src/server/ai/layout/types';
import type { OcrEngine } from '../../../src/server/ai/ocr/ocr-engine';
import { OcrError } from '../../../src/server/ai/ocr/ocr-engine';
import type { FileStore } from '../../../src/server/files';
import * as T from '../../../src/server/tokens';
import type { TestServer } from '../../support/server';

/**
 * An OCR engine for the route tests: answers each image with the lines it was told to "see"
 * (monospaced layout), counts its calls, and can be told to fail; `real` hands images to a
 * real engine instead (one small image at most: OCR is slow here).
 */
export class ScriptedOcr implements OcrEngine {
  lines: string[] = ['Invoice Number: INV-4242', 'Total: 99.50'];
  calls = 0;
  fail?: string;
  real?: OcrEngine;
  /** Resolved when released: lets a test hold the job mid-read to watch its progress. */
  gate?: Promise<void>;

  async recognize(image: Buffer, pageNumber = 1) {
    this.calls += 1;
    await this.gate;
    if (this.fail) throw new OcrError(this.fail);
    if (this.real) return this.real.recognize(image, pageNumber);
    const words: LayoutWord[] = [];
    this.lines.forEach((line, row) => {
      const re = /\S+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(line))) words.push({ text: m[0], x: 40 + m.index * 12, y: 40 + row * 40, width: m[0].length * 12, height: 20, confidence: 0.9 });
    });
    return buildPage(pageNumber, 1000, 1400, 'ocr', words);
  }

  async close() {
    await this.real?.close();
  }
}

/** Stores a file for `owner` straight in the server's file store (as an upload would). */
export async function storeFile(server: TestServer, owner: number, content: Uint8Array | Buffer, originalName: string) {
  const files = server.container.get<FileStore>(T.FileStore);
  return files.put(owner, Buffer.from(content), { originalName, allowed: ['pdf', 'png', 'jpeg', 'csv', 'txt'], maxBytes: 10 * 1024 * 1024 });
}

/** A small PNG with a few lines of large black text on white: readable by real OCR in well under a second. */
export function textPng(lines: string[], width = 520): Buffer {
  const lineHeight = 44;
  const canvas = createCanvas(width, 30 + lines.length * lineHeight);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  ctx.font = '28px sans-serif';
  lines.forEach((line, i) => ctx.fillText(line, 16, 44 + i * lineHeight));
  return canvas.toBuffer('image/png');
}

/** A file that starts like a PDF but is not one: stored by the upload, refused by the reader. */
export const CORRUPT_PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage garbage\n%%EOF');

/** A multipart body (name, file, country, workflow) as the pages send it to uploadworkflowfile. */
export function uploadForm(content: Buffer, filename: string, workflow: string): { payload: Buffer; contentType: string } {
  const boundary = `----extraction${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('name', filename),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from('\r\n'),
    field('country', 'GB'),
    field('workflow', workflow),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Polls a status call until it leaves IN_PROGRESS (or `timeoutMs`), returning every reply seen. */
export async function pollUntilDone(ask: () => Promise<{ status: number; body: any }>, timeoutMs = 20_000) {
  const seen: { status: number; body: any }[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await ask();
    seen.push(res);
    const s = res.body?.Status;
    if (res.status !== 200 && res.status !== 202) return seen;
    if (s !== 'IN_PROGRESS') return seen;
    if (Date.now() > until) throw new Error(`still IN_PROGRESS after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
