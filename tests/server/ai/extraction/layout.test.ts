import { groupWordsIntoLines, phrasesOf } from '../../../../src/server/ai/layout/group';
import { page } from './helpers';

describe('layout grouping', () => {
  it('groups words on one baseline into a line, left to right, even when slightly uneven', () => {
    const lines = groupWordsIntoLines([
      { text: 'World', x: 60, y: 101, width: 30, height: 10, confidence: 1 },
      { text: 'Hello', x: 10, y: 100, width: 30, height: 11, confidence: 1 },
      { text: 'Next', x: 10, y: 120, width: 30, height: 10, confidence: 0.5 },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Hello World', 'Next']);
    expect(lines[1].confidence).toBe(0.5);
  });

  it('splits a line into phrases at wide gaps only', () => {
    const p = page([
      [50, 100, 'Invoice No: 42'],
      [400, 100, 'Total Due'],
    ]);
    expect(phrasesOf(p).map((x) => x.text)).toEqual(['Invoice No: 42', 'Total Due']);
  });
});
