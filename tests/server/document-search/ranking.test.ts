import { migrate } from '../../../src/server/db/migrate';
import { openTestDatabase, type TestDatabase } from '../../support/server';
import { DocumentIndex, documentSearchMigrations } from '../../../plugins/document-search/index-service';

/** `n` filler words that match none of the queries below. */
const filler = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${String.fromCharCode(97 + (i % 26))}`).join(' ');

describe('DocumentIndex candidates and passages (PGlite; PostgreSQL with TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  /** Tiny limits so both ways to the candidates run: the recent window and the GIN index. */
  let small: DocumentIndex;
  /** The same, checking the documents after the window one by one when it holds enough matches. */
  let scanning: DocumentIndex;
  let index: DocumentIndex;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    await migrate(db, documentSearchMigrations);
    small = new DocumentIndex(db, { maxRanked: 3, recentWindow: 4, scanRows: 0 });
    scanning = new DocumentIndex(db, { maxRanked: 2, recentWindow: 4, scanRows: 4 });
    index = new DocumentIndex(db);
    // owner 1: d0 (oldest) … d9 (newest)
    const body: Record<number, string> = {
      0: 'alpha alpha alpha alpha beta',
      1: 'alpha beta gamma',
      2: 'alpha gamma',
      8: 'alpha alpha alpha',
      9: 'alpha gamma',
    };
    for (let d = 0; d < 10; d++) await index.index({ owner: 1, bucket: 'uploads', key: `d${d}`, name: `d${d}`, text: body[d] ?? 'alpha' });
    // owner 2: newer documents with the same words, never shown to owner 1
    await index.index({ owner: 2, bucket: 'uploads', key: 'o1', name: 'other-1', text: 'beta beta beta gamma' });
    await index.index({ owner: 2, bucket: 'uploads', key: 'o2', name: 'other-2', text: 'beta alpha' });
  });
  afterAll(() => database.drop());

  const names = async (idx: DocumentIndex, owner: number, query: string) => (await idx.search(owner, query)).map((h) => h.name);

  it('finds a word that only older documents hold through the index, for their owner only', async () => {
    expect(await names(small, 1, 'beta')).toEqual(['d1', 'd0']); // equal rank: the newer first
    expect(await names(small, 2, 'beta')).toEqual(['other-1', 'other-2']);
  });

  it('completes the recent matches with older ones from the index when they are too few', async () => {
    // d9 is in the recent window (d6–d9); d1 and d2 are found by the index
    expect((await names(small, 1, 'gamma')).sort()).toEqual(['d1', 'd2', 'd9']);
  });

  it('completes the recent matches with the next newest ones, checked one by one, when the window holds enough', async () => {
    // the window (d6–d9) holds one match of two wanted: the other lies within 4 rows, so d5, d4, d3,
    // d2 are checked, newest first, and d2 found; the index (scanRows 0) yields d1 first instead
    expect(await names(scanning, 1, 'gamma')).toEqual(['d9', 'd2']);
    expect(await names(new DocumentIndex(database.db, { maxRanked: 2, recentWindow: 4, scanRows: 0 }), 1, 'gamma')).toEqual(['d9', 'd1']);
    // no match in the window: nothing says the rows after it hold one, so the index is asked
    expect(await names(scanning, 1, 'beta')).toEqual(['d1', 'd0']);
    // the other owner's documents are never checked
    expect(await names(scanning, 2, 'gamma')).toEqual(['other-1']);
  });

  it('asks the index for the other words alone when the prefix is far more common in the window', async () => {
    // owner 4, e0 (oldest) … e7; the window e4–e7 holds one match of 'beta gam' (e7), one document
    // with beta and four with gam…: the index is asked for beta and the prefix checked row by row,
    // which yields the same documents as asking it for both: e0 and e2 (e3 lacks gamma)
    const body = ['beta gamma', 'gamma', 'beta gamma', 'beta', 'gamma', 'gamma', 'gamma', 'beta gamma'];
    for (const [e, text] of body.entries()) await index.index({ owner: 4, bucket: 'uploads', key: `e${e}`, name: `e${e}`, text });
    expect((await names(small, 4, 'beta gam')).sort()).toEqual(['e0', 'e2', 'e7']);
    // checking rows one by one instead (the window holds enough matches for maxRanked 2) finds e2, the newest after it
    // (then the partial matches follow, ranked: beta alone, e3)
    expect((await names(scanning, 4, 'beta gam')).slice(0, 2).sort()).toEqual(['e2', 'e7']);
  });

  it('ranks every match when there are no more than the ranking limit', async () => {
    // d0 (four times) and d8 (three times) lead although d0 is the oldest; equal ranks, the newer first
    expect(await names(index, 1, 'alpha')).toEqual(['d0', 'd8', 'd9', 'd7', 'd6', 'd5', 'd4', 'd3', 'd2', 'd1']);
  });

  it('ranks the newest matches of a query matching more documents than the limit', async () => {
    // the recent window yields d9, d8, d7: the densest of them (d8) leads; d0, denser still, is not a candidate
    expect(await names(small, 1, 'alpha')).toEqual(['d8', 'd9', 'd7']);
  });

  it('is not confused by an owner with fewer documents than the recent window', async () => {
    expect(await names(small, 2, 'alpha')).toEqual(['other-2']);
    expect(await names(small, 3, 'alpha')).toEqual([]);
  });

  describe('passages', () => {
    const passage = async (text: string, query: string) => {
      await index.index({ owner: 7, bucket: 'uploads', key: 'long', name: 'Long report', text });
      const [hit] = await index.search(7, query);
      return hit?.passage;
    };

    it('cuts the passage from around a match deep in a long document', async () => {
      const text = `${filler(3000)} The zebra crossing outside was repainted. ${filler(3000)}`;
      const p = await passage(text, 'zebra');
      expect(p).toContain('The <mark>zebra</mark> crossing outside was repainted');
      expect(p.length).toBeLessThan(400);
    });

    it('finds stemmed words, prefixes and phrases in the passage', async () => {
      const text = `${filler(2000)} Two invoices were reconciled on Friday. ${filler(2000)}`;
      expect(await passage(text, 'invoice')).toContain('Two <mark>invoices</mark> were');
      expect(await passage(text, 'reconc')).toContain('<mark>reconciled</mark> on Friday');
      expect(await passage(text, '"invoices were reconciled"')).toContain('Two <mark>invoices</mark> were <mark>reconciled</mark>');
    });

    it('still marks the match when hyphenated words, URLs and numbers shift the word count', async () => {
      const hyphens = Array.from({ length: 800 }, () => 'cost-benefit').join(' ');
      expect(await passage(`${hyphens} The zebra crossing. ${filler(500)}`, 'zebra')).toContain('The <mark>zebra</mark> crossing');
      const urls = Array.from({ length: 800 }, (_, i) => `https://example.com/a/b/${i} 3.14`).join(' ');
      expect(await passage(`${urls} The zebra crossing. ${filler(500)}`, 'zebra')).toContain('The <mark>zebra</mark> crossing');
    });

    it('shows the beginning of the text when only the name matches', async () => {
      await index.index({ owner: 8, bucket: 'uploads', key: 'n', name: 'Zebra notes', text: `Nothing about it here. ${filler(2000)}` });
      const [hit] = await index.search(8, 'zebra');
      expect(hit.name).toBe('Zebra notes');
      expect(hit.passage).toMatch(/^Nothing about it here/);
      expect(hit.passage).not.toContain('<mark>');
    });
  });
});
