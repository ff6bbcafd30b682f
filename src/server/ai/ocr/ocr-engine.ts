import type { LayoutPage } from '../layout/types';

/** Something that reads the text of an image (PNG or JPEG bytes) into a layout page in pixels. */
export interface OcrEngine {
  recognize(image: Buffer, pageNumber?: number): Promise<LayoutPage>;
  close(): Promise<void>;
}

/** OCR could not run (engine failed to start, or the image could not be decoded). */
export class OcrError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OcrError';
  }
}
