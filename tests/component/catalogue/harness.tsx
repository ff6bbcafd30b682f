import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Shell } from '../../../src/app/Shell';
import type { ClientPlugin } from '../../../src/app/plugin';
import type { Combination, ProviderConnection, Solution, UserRecipeRecord, Workflow } from '../../../src/core/domain';
import connectors from '../../../plugins/connectors';
import invoiceExtraction from '../../../plugins/invoice-extraction';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation';
import financialAnalysis from '../../../plugins/financial-analysis';
import automationViews from '../../../plugins/automation-views';
import costEstimator from '../../../plugins/cost-estimator';
import { LocationProbe, testShell, type TestShell } from '../../support/render';
import type { FakeHandler } from '../../support/fake-fetch';
import { combination as baseCombination, connection, record as baseRecord } from '../../unit/catalogue/fixtures';

/** The browser catalogue plugins (without the lazily loaded workflow views). */
export const cataloguePlugins: ClientPlugin[] = [connectors, invoiceExtraction, invoiceReconciliation, financialAnalysis, automationViews, costEstimator];

export const USER_ID = 1001;
export const WORKATO_ID = 100001;
export const CONNECTIONS = `GET /api/platform/proxy?url=api/managed_users/${WORKATO_ID}/connections`;
export const RECIPES = `GET /api/platform/userByWorkatoRecipe/${WORKATO_ID}/`;

const conn = (id: number, provider: string, order: number) => ({ id, name: provider, icon: provider, order, provider });

/** The unit fixtures, with a connector list and sub title, as the screens show them. */
export function combination(id: number, fields: Partial<Combination> = {}): Combination {
  return baseCombination(id, {
    sub_title: `Sub title ${id}`,
    connectors: [conn(5, 'manual_email', 1), conn(6, 'flowmatic_ai', 2), conn(2, 'google_sheets', 3)],
    ...fields,
  });
}

export const record = (combinationId: number, fields: Partial<UserRecipeRecord> = {}): UserRecipeRecord =>
  baseRecord(combinationId, { recipe_id: 5000 + combinationId, ...fields });

export { connection };

export function solution(id: number, fields: Partial<Solution> = {}): Solution {
  return {
    id,
    name: `Solution ${id}`,
    descrption: `About solution ${id}`,
    icon: 'finance',
    status: 'active',
    created_by: { user: { first_name: 'Grace' } },
    created_time: '2026-11-22T10:00:00Z',
    ...fields,
  };
}

export function workflow(id: number, fields: Partial<Workflow> = {}): Workflow {
  return { id, name: `Workflow ${id}`, descrption: `About workflow ${id}`, icon: 'invoice', ...fields };
}

export type RouteTable = Record<string, FakeHandler | { status?: number; body?: unknown }>;

/** The per-user calls every catalogue screen makes, answered with nothing by default. */
export function userRoutes(over: { connections?: ProviderConnection[]; records?: UserRecipeRecord[]; votes?: unknown[] } = {}): RouteTable {
  return {
    [CONNECTIONS]: { body: { result: over.connections ?? [] } },
    [RECIPES]: { body: { workato_recipes: over.records ?? [] } },
    'GET /api/platform/votes': { body: over.votes ?? [] },
  };
}

export function catalogueShell(routes: RouteTable, plugins: ClientPlugin[] = cataloguePlugins, sessionStorage?: TestShell['storage']): TestShell {
  return testShell({ loggedIn: true, plugins, routes, sessionStorage });
}

/** Renders `element` at `path` under a route pattern (so useParams works), with earlier history entries. */
export function renderRoute(shell: TestShell, pattern: string, element: ReactElement, path: string, history: string[] = []) {
  return render(
    <Shell container={shell.container}>
      <MemoryRouter initialEntries={[...history, path]} initialIndex={history.length}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Shell>,
  );
}

/** A promise the test settles by hand. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
