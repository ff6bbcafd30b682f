/**
 * @jest-environment node
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../../src/app/services/http';
import { GENERIC_ERROR, looksInternal, userMessage } from '../../../src/app/messages';

const repo = path.resolve(__dirname, '../../..');

/** The browser bundle's sources: src/app and every plugin file that is not server code. */
function clientFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return ['node_modules', 'engine', 'migrations'].includes(name) ? [] : clientFiles(p);
    if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name) || /^server|automation-actions|-server\.ts$/.test(name)) return [];
    // server code living in a plugin's folder (it imports src/server or node:) is not in the bundle
    return /from '(node:[^']+|(\.\.\/)+src\/server)'/.test(readFileSync(p, 'utf8')) ? [] : [p];
  });
}

/** Where a client file would put an exception's own text on screen instead of going through userMessage. */
export function rawErrorTexts(source: string): string[] {
  const found: string[] = [];
  for (const re of [
    /(\w+) instanceof Error \? \1\.message : String\(\1\)/g,
    /(\w+) instanceof Error && \1\.message \? \1\.message :/g,
    /\b(e|err|error)\.stack\b/g,
  ]) {
    for (const m of source.matchAll(re)) found.push(m[0]);
  }
  return found;
}

describe('one place for user-facing error text (src/app/messages.ts, issue 25)', () => {
  it("keeps the server's sentences and the app's own, and replaces an exception's text by the screen's sentence", () => {
    expect(userMessage(new ApiError(422, 'This file is not a PDF: it looks like a Windows program.', {}))).toBe(
      'This file is not a PDF: it looks like a Windows program.',
    );
    expect(userMessage(new Error('The file is larger than 20 MB.'), 'The file could not be read.')).toBe('The file is larger than 20 MB.');
    expect(userMessage(new RangeError('Invalid string length'), 'The file could not be read.')).toBe('The file could not be read.');
    expect(userMessage(new TypeError('Failed to fetch'))).toBe(GENERIC_ERROR);
    expect(userMessage(new SyntaxError('Unexpected token < in JSON at position 0'))).toBe(GENERIC_ERROR);
    expect(userMessage(new Error("Cannot read properties of undefined (reading 'rows')"))).toBe(GENERIC_ERROR);
    expect(userMessage(new Error('Please choose a sheet (or send "sheet_id").'))).toBe(GENERIC_ERROR);
    expect(userMessage('a string thrown', 'Fallback.')).toBe('Fallback.');
    expect(userMessage(new Error(''), 'Fallback.')).toBe('Fallback.');
  });

  it('tells code-like text from sentences', () => {
    for (const raw of [
      'TypeError: x is not a function',
      'to 0 in undefined',
      'Error\n    at read (file.ts:1:2)',
      'give its "file_id"',
      'NaN rows',
      '[object Object]',
    ])
      expect([raw, looksInternal(raw)]).toEqual([raw, true]);
    for (const fine of [
      'The sheet is full.',
      'This file is not a PDF: it looks like a Windows program.',
      'Could not reach the server. Check your connection and try again.',
      'The connections could not be opened. Please try again.',
    ])
      expect([fine, looksInternal(fine)]).toEqual([fine, false]);
  });

  it('no client source shows an exception text or a stack directly: each goes through userMessage', () => {
    const files = [...clientFiles(path.join(repo, 'src/app')), ...clientFiles(path.join(repo, 'plugins'))];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => rawErrorTexts(readFileSync(f, 'utf8')).map((t) => `${path.relative(repo, f)}: ${t}`));
    expect(found).toEqual([]);
  });

  it('the scan catches both shapes and a stack', () => {
    expect(
      rawErrorTexts(
        "setError(e instanceof Error ? e.message : String(e)); x(err instanceof Error && err.message ? err.message : 'x'); <pre>{error.stack}</pre>",
      ),
    ).toEqual(['e instanceof Error ? e.message : String(e)', 'err instanceof Error && err.message ? err.message :', 'error.stack']);
  });
});
