export * from './types';
export * from './geometry';
export * from './group';
