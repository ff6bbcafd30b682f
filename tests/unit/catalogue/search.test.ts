import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { SEARCH_DEBOUNCE_MS, searchIntent, searchRequests } from '../../../src/core/catalogue';

describe('search rule', () => {
  it('searches only terms longer than 2 characters; empty means the full list', () => {
    expect(searchIntent('')).toEqual({ kind: 'all' });
    expect(searchIntent('   ')).toEqual({ kind: 'all' });
    expect(searchIntent('a')).toEqual({ kind: 'ignore' });
    expect(searchIntent('ab')).toEqual({ kind: 'ignore' });
    expect(searchIntent(' ab ')).toEqual({ kind: 'ignore' });
    expect(searchIntent('abc')).toEqual({ kind: 'search', term: 'abc' });
    expect(searchIntent('  invoice ')).toEqual({ kind: 'search', term: 'invoice' });
  });

  it('waits 700 ms', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(700);
  });

  const scheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

  it('sends a term only after a 700 ms pause, and only the last one', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // typing 'inv', then 'invo' 100 ms later, then a pause
      const values = cold('a 99ms b', { a: 'inv', b: 'invo' });
      expectObservable(searchRequests(values)).toBe('100ms 700ms s', { s: { kind: 'search', term: 'invo' } });
    });
  });

  it('sends nothing for 1 or 2 characters, and a short term cancels a pending search', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = cold('a 99ms b 999ms c', { a: 'abc', b: 'ab', c: 'x' });
      expectObservable(searchRequests(values)).toBe('');
    });
  });

  it('clearing the box asks for the full list at once and cancels a pending search', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values = cold('a 99ms b', { a: 'invoice', b: '' });
      expectObservable(searchRequests(values)).toBe('100ms c', { c: { kind: 'all' } });
    });
  });

  it('works on a plain subject with real time (asyncScheduler)', async () => {
    jest.useFakeTimers();
    try {
      const values = new Subject<string>();
      const out: unknown[] = [];
      const sub = searchRequests(values).subscribe((v) => out.push(v));
      values.next('inv');
      jest.advanceTimersByTime(699);
      expect(out).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(out).toEqual([{ kind: 'search', term: 'inv' }]);
      sub.unsubscribe();
    } finally {
      jest.useRealTimers();
    }
  });
});
