export * from './ocr-engine';
export * from './tesseract-pool';
export * from './prepare-image';
