export * from './ocr-engine';
export * from './tesseract-pool';
