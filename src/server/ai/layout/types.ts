/**
 * The shared representation of a read page, whatever read it (a PDF text layer or OCR).
 * Coordinates have their origin at the top-left corner of the page, y grows downwards, and are
 * in the page's own units (PDF points for a text layer, pixels for an image): extractors only
 * compare positions relative to the text height, so the unit does not matter to them.
 */
export interface LayoutBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One word: a run of characters without spaces. Confidence is 0..1 (1 for a text layer). */
export interface LayoutWord extends LayoutBox {
  text: string;
  confidence: number;
}

/** Words that sit on one baseline, left to right, across the whole page width. */
export interface LayoutLine extends LayoutBox {
  text: string;
  words: LayoutWord[];
  confidence: number;
}

/**
 * A phrase: words of one line that are close together (a label, a value, a table cell). Lines
 * split into phrases where the horizontal gap is much wider than a space.
 */
export interface LayoutPhrase extends LayoutBox {
  text: string;
  words: LayoutWord[];
  confidence: number;
  /** Index of the phrase's line in its page's `lines`. */
  lineIndex: number;
  pageNumber: number;
}

export type PageSource = 'text-layer' | 'ocr';

export interface LayoutPage {
  /** 1-based page number in the document. */
  pageNumber: number;
  width: number;
  height: number;
  source: PageSource;
  words: LayoutWord[];
  lines: LayoutLine[];
}
