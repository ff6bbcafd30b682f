/** Pure catalogue rules (no React): ordering, lists, authorisation, card state, costs, search. */
export * from './names';
export * from './format';
export * from './ordering';
export * from './recipes';
export * from './authorisation';
export * from './card-state';
export * from './lists';
export * from './votes';
export * from './cost';
export * from './search';
