/** Moved to the browser shell's testing face: src/app/testing. */
export * from '../../src/app/testing/fake-fetch';
