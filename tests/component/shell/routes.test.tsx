import { screen, waitFor, within } from '@testing-library/react';
import { AppRoutes } from '../../../src/app/routes';
import { definePlugin } from '../../../src/app/plugin';
import { renderInShell, testShell } from '../../support/render';

const publicPlugin = definePlugin({
  id: 'test-public',
  routes: [
    { path: '/welcome', access: 'public', view: { load: async () => ({ default: () => <h1>Landing</h1> }) } },
    { path: '/members', access: 'login', view: { load: async () => ({ default: () => <h1>Members only</h1> }) } },
  ],
});

async function landAt(path: string, loggedIn: boolean) {
  const shell = testShell({ loggedIn, plugins: [publicPlugin], routes: { 'GET /api/platform/users/1001/': { body: { Name: 'Ada' } } } });
  renderInShell(<AppRoutes />, shell, path);
  return shell;
}

const location = () => screen.getByTestId('location').textContent;

describe('route guards (spec section 2, route table)', () => {
  it.each([
    ['/', false, '/welcome'],
    ['/', true, '/home'],
    ['/solutions', false, '/login'],
    ['/solution/1', false, '/login'],
    ['/workflow/10002', false, '/login'],
    ['/solutions/combinations/10004', false, '/login'],
    ['/solutions/combinations/workflow/10', false, '/login'],
    ['/solutions/combinations/basic-workflow/2', false, '/login'],
    ['/monitoring/1', false, '/login'],
    ['/my-account', false, '/login'],
    ['/members', false, '/login'],
    ['/reset-password', true, '/solutions'],
    ['/reset-password', false, '/reset-password'],
    ['/no/such/page', false, '/login'],
    ['/welcome', false, '/welcome'],
    ['/login', false, '/login'],
    ['/register', false, '/register'],
    ['/my-account', true, '/my-account'],
    ['/solutions', true, '/solutions'],
  ])('%s (logged in: %s) ends at %s', async (path, loggedIn, expected) => {
    await landAt(path, loggedIn);
    await waitFor(() => expect(location()).toBe(expected));
  });

  it('shows the 404 page for an unknown route when logged in, with Back to Home to /solutions', async () => {
    await landAt('/no/such/page', true);
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/solutions');
    expect(location()).toBe('/no/such/page');
  });

  it('renders plugin routes lazily with their access rule', async () => {
    await landAt('/members', true);
    expect(await screen.findByRole('heading', { name: 'Members only' })).toBeInTheDocument();
  });
});

describe('layout', () => {
  it("shows the navigation, 'Welcome {Name}' from the profile and the Beta badge", async () => {
    await landAt('/solutions', true);
    expect(await screen.findByText('Welcome Ada')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Solutions/ })).toHaveAttribute('href', '/solutions');
    expect(screen.getByRole('link', { name: /My account/ })).toHaveAttribute('href', '/my-account');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.getByRole('note', { name: 'Beta' })).toBeInTheDocument();
  });

  it('stays mounted across pages: the profile is fetched once and the greeting never blanks', async () => {
    const shell = await landAt('/solutions', true);
    expect(await screen.findByText('Welcome Ada')).toBeInTheDocument();
    within(screen.getByRole('navigation', { name: 'Main' }))
      .getByRole('link', { name: 'Flowmatic Home' })
      .click();
    await waitFor(() => expect(location()).toBe('/home'));
    expect(screen.getByText('Welcome Ada')).toBeInTheDocument();
    expect(shell.fetch.calls.filter((c) => c.path === '/api/platform/users/1001/')).toHaveLength(1);
  });

  it("'Log out' clears the session and goes to /login", async () => {
    const shell = await landAt('/solutions', true);
    (await screen.findByRole('button', { name: 'Log out' })).click();
    expect(shell.storage.getItem('isAuth')).toBeNull();
    expect(shell.navigator.assign).toHaveBeenCalledWith('/login');
  });
});
