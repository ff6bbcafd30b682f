import { PluginRegistry } from '../../../src/core/plugin-registry';
import {
  activeCombinations,
  authorisationSourceFrom,
  availableCount,
  cardAction,
  cardStatus,
  combinationPath,
  hasJobHistory,
  hasVoted,
  myVotes,
  recipeFor,
  recommendedCombinations,
} from '../../../src/core/catalogue';
import connectorsPlugin from '../../../plugins/connectors';
import invoiceExtraction from '../../../plugins/invoice-extraction';
import { combination, connection, record } from './fixtures';

const source = authorisationSourceFrom(new PluginRegistry([connectorsPlugin, invoiceExtraction]));

describe('Active list', () => {
  const ran = (id: number) => record(id, { job_succeeded_count: 1 });

  it('keeps enabled, available, authorised combinations with job history', () => {
    const list = [
      combination(8), // always authorised, ran
      combination(9), // xero missing
      combination(1, { enabled: false }), // disabled
      combination(10, { status: 'coming_soon' }), // coming soon
      combination(11), // no job history
    ];
    const records = [ran(8), ran(9), ran(1), ran(10), record(11)];
    expect(activeCombinations(list, { connections: [connection('google_drive')], records, source }).map((c) => c.id)).toEqual([8]);
  });

  it('counts failed jobs as history too', () => {
    const records = [record(8, { job_failed_count: 2 })];
    expect(activeCombinations([combination(8)], { connections: [], records, source })).toHaveLength(1);
  });

  it('includes 9 once xero is connected', () => {
    expect(activeCombinations([combination(9)], { connections: [connection('xero')], records: [ran(9)], source })).toHaveLength(1);
  });
});

describe('Recommended list', () => {
  it('keeps enabled recommended combinations with zero failed and zero succeeded jobs', () => {
    const list = [
      combination(1, { recommended: true }), // no recipe at all
      combination(2, { recommended: true }), // recipe without jobs
      combination(3, { recommended: true }), // succeeded once
      combination(4, { recommended: true }), // failed once
      combination(5, { recommended: false }),
      combination(6, { recommended: true, enabled: false }),
    ];
    const records = [record(2), record(3, { job_succeeded_count: 1 }), record(4, { job_failed_count: 1 })];
    expect(recommendedCombinations(list, { records }).map((c) => c.id)).toEqual([1, 2]);
  });
});

describe('recipe lookup and job history', () => {
  it('matches by recipe_id first, then by combination id; never the starter recipe (0)', () => {
    const records = [record(0, { recipe_id: 77 }), record(3, { recipe_id: 55 }), record(3, { recipe_id: 56, name: 'Invoices Basic' })];
    expect(recipeFor(combination(3, { recipe_id: 56 }), records)?.recipe_id).toBe(56);
    expect(recipeFor(combination(3), records)?.recipe_id).toBe(55);
    expect(recipeFor(combination(3, { name: 'Invoices (basic)' }), records)?.recipe_id).toBe(56);
    expect(recipeFor(combination(4, { recipe_id: 77 }), records)).toBeUndefined();
  });

  it('has job history with one succeeded or failed job', () => {
    expect(hasJobHistory(undefined)).toBe(false);
    expect(hasJobHistory(record(1))).toBe(false);
    expect(hasJobHistory(record(1, { job_succeeded_count: 1 }))).toBe(true);
    expect(hasJobHistory(record(1, { job_failed_count: 1 }))).toBe(true);
  });
});

describe('card state', () => {
  it('coming soon wins', () => {
    expect(cardStatus(combination(1, { status: 'coming_soon' }), record(1, { job_succeeded_count: 3 }), true)).toBe('coming_soon');
  });
  it('Connected needs job history AND authorisation', () => {
    expect(cardStatus(combination(1), record(1, { job_succeeded_count: 1 }), true)).toBe('connected');
    expect(cardStatus(combination(1), record(1, { job_failed_count: 1 }), true)).toBe('connected');
    expect(cardStatus(combination(1), record(1, { job_succeeded_count: 1 }), false)).toBe('inactive');
    expect(cardStatus(combination(1), record(1), true)).toBe('inactive');
    expect(cardStatus(combination(1), undefined, true)).toBe('inactive');
  });
  it("action is 'Use Now' while running, else 'Get Now'", () => {
    expect(cardAction(combination(1, { running: true }))).toBe('Use Now');
    expect(cardAction(combination(1, { running: false }))).toBe('Get Now');
  });
  it('links basic variants to the basic route', () => {
    expect(combinationPath(combination(3, { name: 'Invoice to Sheets' }))).toBe('/solutions/combinations/workflow/3');
    expect(combinationPath(combination(3, { name: 'Invoice to Sheets (basic)' }))).toBe('/solutions/combinations/basic-workflow/3');
  });
});

describe('counters and votes', () => {
  it('Combinations Available counts enabled combinations that are not coming soon', () => {
    expect(availableCount([combination(1), combination(2, { enabled: false }), combination(3, { status: 'coming_soon' })])).toBe(1);
  });
  it('matches votes to the current user id', () => {
    const votes = [
      { combination_id: 12, user_id: 5 },
      { combination_id: 13, user_id: 6 },
    ];
    expect(myVotes(votes, 5)).toEqual([{ combination_id: 12, user_id: 5 }]);
    expect(myVotes(votes, null)).toHaveLength(2);
    expect(hasVoted({ id: 12 }, myVotes(votes, 5))).toBe(true);
    expect(hasVoted({ id: 13 }, myVotes(votes, 5))).toBe(false);
    expect(hasVoted({ id: 13, my_vote: true }, [])).toBe(true);
  });
});
