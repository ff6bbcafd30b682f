import { sortCombinations, sortConnectors, sortWorkflows } from '../../../src/core/catalogue';
import { combination } from './fixtures';

describe('combination ordering', () => {
  it('orders by order descending', () => {
    const list = [combination(1, { order: 1 }), combination(2, { order: 3 }), combination(3, { order: 2 })];
    expect(sortCombinations(list).map((c) => c.id)).toEqual([2, 3, 1]);
  });

  it('breaks order ties by votes descending', () => {
    const list = [combination(1, { order: 5, votes: 1 }), combination(2, { order: 5, votes: 9 }), combination(3, { order: 6, votes: 0 })];
    expect(sortCombinations(list).map((c) => c.id)).toEqual([3, 2, 1]);
  });

  it('puts coming-soon combinations last whatever their order and votes', () => {
    const list = [
      combination(1, { order: 99, votes: 50, status: 'coming_soon' }),
      combination(2, { order: 1, votes: 0 }),
      combination(3, { order: 2, votes: 0, status: 'coming_soon' }),
      combination(4, { order: 2, votes: 3 }),
    ];
    expect(sortCombinations(list).map((c) => c.id)).toEqual([4, 2, 1, 3]);
  });

  it('is stable on full ties (id ascending) and does not mutate its input', () => {
    const list = [combination(3), combination(1), combination(2)];
    expect(sortCombinations(list).map((c) => c.id)).toEqual([1, 2, 3]);
    expect(list.map((c) => c.id)).toEqual([3, 1, 2]);
  });
});

describe('workflow ordering', () => {
  it('puts coming-soon workflows (icon coming_soon) last and keeps the rest in order', () => {
    const list = [
      { id: 1, icon: 'coming_soon' },
      { id: 2, icon: 'invoice' },
      { id: 3, icon: 'coming_soon' },
      { id: 4, icon: 'search' },
    ];
    expect(sortWorkflows(list).map((w) => w.id)).toEqual([2, 4, 1, 3]);
  });
});

describe('connector ordering', () => {
  it('sorts connectors by order ascending', () => {
    expect(
      sortConnectors([
        { order: 3, id: 'c' },
        { order: 1, id: 'a' },
        { order: 2, id: 'b' },
      ]).map((c) => c.id),
    ).toEqual(['a', 'b', 'c']);
    expect(sortConnectors(undefined)).toEqual([]);
  });
});
