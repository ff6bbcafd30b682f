export * from './amount';
export * from './date';
export * from './labels';
export * from './line-items';
export * from './invoice';
export * from './document';
export * from './patterns';
export * from './read-document';
