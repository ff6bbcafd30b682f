/** Moved to the browser shell's testing face: src/app/testing (what plugins' view tests import). */
export * from '../../src/app/testing/render';
