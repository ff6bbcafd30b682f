import { act, fireEvent, screen } from '@testing-library/react';
import * as T from '../../../src/app/tokens';
import { INTRO_COLLAPSED, IntroPanel } from '../../../src/app/pages/catalogue/IntroPanel';
import type { Session as SessionService } from '../../../src/app/services/session';
import { MemoryStorage } from '../../../src/app/services/storage';
import { fakeJwt } from '../../support/fake-fetch';
import { renderInShell, testShell } from '../../support/render';

const USERS: Record<string, number> = { 'ada@example.com': 1001, 'bob@example.com': 1002 };
let lastLogin = '';

/** One browser (one storage) where users log in and out; each log-in is a fresh page load. */
async function logIn(storage: MemoryStorage, email: string) {
  const shell = testShell({
    storage,
    routes: {
      'POST /api/platform/api-jwt-token/': (c) => {
        lastLogin = (c.body as { username: string }).username;
        return { body: { access: fakeJwt(Math.floor(Date.now() / 1000) + 300, String(USERS[lastLogin])), refresh: 'r1' } };
      },
      'GET /api/platform/userId': () => ({ body: { userID: USERS[lastLogin], workato_id: 100001, is_verify: true, time_zone: '', email: lastLogin } }),
      'POST /api/platform/marketing': { body: { status: 'success' } },
      'POST /api/platform/logout': { body: { status: 'success' } },
    },
  });
  const session = shell.container.get<SessionService>(T.Session);
  await act(async () => {
    await expect(session.login(email, 'a password')).resolves.toEqual({ ok: true });
  });
  const view = renderInShell(<IntroPanel />, shell, '/home');
  return {
    shell,
    logOut: () => {
      view.unmount();
      session.logout();
    },
  };
}

const header = () => screen.getByRole('button', { name: 'Your new home page' });

describe("'Your new home page' stays collapsed for that user once collapsed (issue 25)", () => {
  it("collapsed by 'Great!', it stays collapsed after log-out and log-in; another user on the same browser still sees it", async () => {
    const storage = new MemoryStorage();
    const first = await logIn(storage, 'ada@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Great!' }));
    expect(header()).toHaveAttribute('aria-expanded', 'false');
    expect(storage.getItem('shouldCollapseNews')).toBe('true');
    first.logOut();
    // the log-out cleared the session's keys (the spec's shouldCollapseNews among them), not the user's choice
    expect(storage.getItem('isAuth')).toBeNull();
    expect(storage.getItem('shouldCollapseNews')).toBeNull();
    expect(JSON.parse(storage.getItem('userPreferences')!)).toEqual({ 1001: { [INTRO_COLLAPSED]: true } });

    const again = await logIn(storage, 'ada@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Great!' })).not.toBeInTheDocument();
    again.logOut();

    await logIn(storage, 'bob@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Great!' })).toBeInTheDocument();
  });

  it('collapsed by its header it stays collapsed too, and opened again it stays open', async () => {
    const storage = new MemoryStorage();
    const first = await logIn(storage, 'ada@example.com');
    fireEvent.click(header());
    expect(header()).toHaveAttribute('aria-expanded', 'false');
    first.logOut();
    const second = await logIn(storage, 'ada@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(header());
    expect(header()).toHaveAttribute('aria-expanded', 'true');
    second.logOut();
    await logIn(storage, 'ada@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'true');
    expect(JSON.parse(storage.getItem('userPreferences')!)).toEqual({ 1001: { [INTRO_COLLAPSED]: false } });
  });

  it('a damaged preferences record is ignored: the panel shows, and the next choice is stored', async () => {
    const storage = new MemoryStorage();
    storage.setItem('userPreferences', '{not json');
    await logIn(storage, 'ada@example.com');
    expect(header()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(header());
    expect(JSON.parse(storage.getItem('userPreferences')!)).toEqual({ 1001: { [INTRO_COLLAPSED]: true } });
  });
});
