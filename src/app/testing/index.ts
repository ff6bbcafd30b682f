/**
 * The browser shell's testing face: what a plugin's view tests use (plugins/<name>/*.test.tsx,
 * run in jsdom). A view renders inside the real shell (its providers, session, router) with a
 * fake API server and typed partial fakes of any service:
 *
 *   import { renderInShell, fake } from '../../src/app/testing';
 *   import { T } from '../../src/app';
 *   const view = renderInShell(<MyWorkflowView workflowId={900001} />, {
 *     routes: { 'GET /api/plugins/my-workflow/items': { body: { items: [] } } },
 *     fakes: [fake(T.Breadcrumbs, { set: () => undefined })],
 *   });
 */
export { renderInShell, testShell, loggedInStorage, LocationProbe, type RenderInShellOptions, type ShellRender, type TestShell } from './render';
export { fakeFetch, fakeJwt, type FakeCall, type FakeHandler, type FakeRoutes } from './fake-fetch';
export { fake, replace, type Fake, type AnyFake } from '../../core/testing';
export { MemoryStorage } from '../services/storage';
