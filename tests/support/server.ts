/** Moved to the server's testing face: src/server/testing (what plugins' tests import). */
export * from '../../src/server/testing/server';
