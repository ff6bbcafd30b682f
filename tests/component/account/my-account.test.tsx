import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MyAccountPage from '../../../src/app/pages/MyAccountPage';
import { MemoryStorage } from '../../../src/app/services/storage';
import * as T from '../../../src/app/tokens';
import type { EventBus } from '../../../src/core/event-bus';
import { callsTo, renderRoutes, type Handler } from '../auth/harness';

const PROFILE = {
  Name: 'Ada Lovelace',
  Email: 'ada@example.com',
  Role: 4,
  Currency: 'GBP',
  Time_zone: '(GMT+00:00) Europe/London',
  Company: { name: 'Analytical Ltd' },
  Creation_date: '2026-03-05T12:00:00Z',
  status: 'success',
};
const USER = '/api/platform/users/7/';

function loggedIn(): MemoryStorage {
  const s = new MemoryStorage();
  s.setItem('isAuth', 'true');
  s.setItem('userId', '7');
  s.setItem('auth', JSON.stringify({ expire: Date.now() + 3_600_000, token: 'access-7', refresh_token: 'refresh-7' }));
  s.setItem('token', 'access-7');
  return s;
}

function renderAccount(handlers: Record<string, Handler> = {}, storage = loggedIn()) {
  return renderRoutes({
    path: '/my-account',
    routes: { '/my-account': <MyAccountPage /> },
    handlers: { [`GET ${USER}`]: () => ({ body: PROFILE }), ...handlers },
    storage,
  });
}

const intentOf = (el: HTMLElement) => el.closest('[data-intent]')?.getAttribute('data-intent');

describe('My Account: tabs', () => {
  it('has the five tabs of the spec, then API keys (issue 23), with my-details selected by default', async () => {
    renderAccount();
    const tabs = screen.getAllByRole('tab');
    expect(tabs).toHaveLength(6);
    ['My details', 'My plan', 'Billing', 'Password', 'My team', 'API keys'].forEach((name, i) => expect(screen.getByRole('tab', { name })).toBe(tabs[i]));
    expect(tabs.map((t) => t.getAttribute('value'))).toEqual(['my-details', 'my-plan', 'my-billing', 'password-form', 'my-team', 'api-keys']);
    expect(screen.getByRole('tab', { name: 'My details' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByLabelText('Name')).toHaveValue('Ada Lovelace');
  });

  it('reloads the page through the Navigator when my-details is chosen', async () => {
    const user = userEvent.setup();
    const { navigator } = renderAccount();
    await user.click(screen.getByRole('tab', { name: 'My plan' }));
    expect(navigator.reload).not.toHaveBeenCalled();
    await user.click(screen.getByRole('tab', { name: 'My details' }));
    expect(navigator.reload).toHaveBeenCalledTimes(1);
  });

  it("shows 'Something awesome will be here soon!' in the my-team view", async () => {
    const user = userEvent.setup();
    renderAccount();
    await user.click(screen.getByRole('tab', { name: 'My team' }));
    // the tabs other than My details are a chunk loaded on first choice (issue 7)
    expect(await screen.findByText('Something awesome will be here soon!')).toBeInTheDocument();
  });

  it('shows the four plan tiers with the prices and limits of the spec', async () => {
    const user = userEvent.setup();
    renderAccount();
    await user.click(screen.getByRole('tab', { name: 'My plan' }));
    await screen.findByRole('group', { name: 'Basic plan' });
    const expected: Record<string, string[]> = {
      Basic: ['US$100/month', '1 workflow', '100 tasks/month', 'Extra $1/task'],
      Starter: ['US$1,000', '2 workflows', '2000 tasks', 'Extra $0.50/task', 'Extra users $500'],
      Advanced: ['US$3,000', '3 workflows', '10,000 tasks', 'Extra $0.30/task', 'Extra users $300'],
      Corporate: ['US$5,000', 'Up to 10 workflows', '1 million tasks', 'Extra $0.005/task', 'Extra users $100'],
    };
    for (const [name, lines] of Object.entries(expected)) {
      const card = screen.getByRole('group', { name: `${name} plan` });
      expect(within(card).getByRole('heading', { name })).toBeInTheDocument();
      for (const line of lines) expect(within(card).getByText(line)).toBeInTheDocument();
    }
  });

  it('shows one billing row: 30 day free trial, no invoice, $0, Processed', async () => {
    const user = userEvent.setup();
    renderAccount();
    await user.click(screen.getByRole('tab', { name: 'Billing' }));
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[1])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['30 day free trial', 'No invoice', '$0', 'Processed']);
  });
});

describe('My Account: details', () => {
  it('loads the profile into the form; Role is disabled and Company and Creation_date are read-only', async () => {
    const { calls } = renderAccount();
    expect(await screen.findByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(callsTo(calls, USER)[0].headers.Authorization).toBe('Bearer access-7');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    const role = screen.getByLabelText('Role') as HTMLSelectElement;
    expect(role).toBeDisabled();
    expect(role.selectedOptions[0].textContent).toBe('Data Scientist');
    expect(screen.getByLabelText('Company')).toHaveValue('Analytical Ltd');
    expect(screen.getByLabelText('Company')).toHaveAttribute('readonly');
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).selectedOptions[0].textContent).toBe('GBP');
    expect((screen.getByLabelText('Time_zone') as HTMLSelectElement).selectedOptions[0].textContent).toBe('(GMT+00:00) Europe/London');
    expect(screen.getByLabelText('Creation_date')).toHaveValue('March 5, 2026');
    expect(screen.getByLabelText('Creation_date')).toHaveAttribute('readonly');
  });

  it('offers every time zone label of time-zones.json', async () => {
    renderAccount();
    const tz = (await screen.findByLabelText('Time_zone')) as HTMLSelectElement;
    const zones: string[] = (await import('../../../schemas/account/time-zones.json')).zones;
    const labels = Array.from(tz.options)
      .map((o) => o.textContent)
      .filter((t) => t !== 'Select a time zone');
    expect(labels).toEqual(zones);
  });

  it('renders blank (and only logs) when the profile cannot be fetched', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    renderAccount({ [`GET ${USER}`]: () => ({ status: 500, body: { status: 'error', message: 'Boom' } }) });
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
    log.mockRestore();
  });

  it('sends name, currency, time_zone and role, without the unchanged e-mail', async () => {
    const user = userEvent.setup();
    const { calls } = renderAccount({ [`PUT ${USER}`]: () => ({ body: { status: 'success', message: 'Profile updated.' } }) });
    await user.clear(await screen.findByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Ada King');
    await user.selectOptions(screen.getByLabelText('Currency'), 'EUR');
    await user.selectOptions(screen.getByLabelText('Time_zone'), '(GMT+00:00) UTC');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Profile updated.');
    const [put] = callsTo(calls, USER).filter((c) => c.method === 'PUT');
    expect(put.body).toEqual({ name: 'Ada King', currency: 'EUR', time_zone: '(GMT+00:00) UTC', role: 4 });
    expect(put.headers.Authorization).toBe('Bearer access-7');
  });

  it('asks for the current password when the e-mail changes, sends it as password, and shows the pending banner', async () => {
    const user = userEvent.setup();
    const { calls } = renderAccount({
      [`PUT ${USER}`]: (req) =>
        req.body.password === 'right-password'
          ? { body: { status: 'success', message: 'Check your new address to confirm the change.', pending_email: 'ada@analytical.example' } }
          : { status: 400, body: { status: 'error', message: 'Your current password is incorrect.' } },
    });
    await user.clear(await screen.findByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@analytical.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // nothing is sent before the password is given
    const dialog = await screen.findByRole('dialog');
    expect(callsTo(calls, USER).filter((c) => c.method === 'PUT')).toHaveLength(0);
    expect(within(dialog).getByText(/ada@analytical\.example/)).toBeInTheDocument();
    // an empty password is refused in the dialog
    await user.click(within(dialog).getByRole('button', { name: 'Change e-mail' }));
    expect(await within(dialog).findByText('Enter your current password.')).toBeInTheDocument();
    // a wrong one shows the server's sentence and keeps the dialog open
    await user.type(within(dialog).getByLabelText('Current password'), 'wrong-password');
    await user.click(within(dialog).getByRole('button', { name: 'Change e-mail' }));
    expect(await within(dialog).findByText('Your current password is incorrect.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Current password'));
    await user.type(within(dialog).getByLabelText('Current password'), 'right-password');
    await user.click(within(dialog).getByRole('button', { name: 'Change e-mail' }));
    await screen.findByText('Check your new address to confirm the change.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const puts = callsTo(calls, USER).filter((c) => c.method === 'PUT');
    expect(puts.map((p) => p.body)).toEqual([
      { name: 'Ada Lovelace', currency: 'GBP', time_zone: '(GMT+00:00) Europe/London', role: 4, email: 'ada@analytical.example', password: 'wrong-password' },
      { name: 'Ada Lovelace', currency: 'GBP', time_zone: '(GMT+00:00) Europe/London', role: 4, email: 'ada@analytical.example', password: 'right-password' },
    ]);
    // the old address stays in force until the link is opened; a lasting banner names the new one
    expect(screen.getByTestId('pending-email')).toHaveTextContent(/ada@analytical\.example/);
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('sends nothing when the password dialog is cancelled', async () => {
    const user = userEvent.setup();
    const { calls } = renderAccount({ [`PUT ${USER}`]: () => ({ body: { status: 'success', message: 'Saved' } }) });
    await user.clear(await screen.findByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@analytical.example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(calls, USER).filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('shows the pending banner from the profile while a change waits', async () => {
    renderAccount({ [`GET ${USER}`]: () => ({ body: { ...PROFILE, Pending_email: 'ada@new.example' } }) });
    expect(await screen.findByTestId('pending-email')).toHaveTextContent('Check your new address to confirm the change.');
    expect(screen.getByTestId('pending-email')).toHaveTextContent('ada@new.example');
  });

  it('publishes profile/updated with the new name and stores the time zone', async () => {
    const user = userEvent.setup();
    const storage = loggedIn();
    const { container } = renderAccount({ [`PUT ${USER}`]: () => ({ body: { status: 'success', message: 'Saved' } }) }, storage);
    const names: string[] = [];
    container
      .get<EventBus>(T.EventBus)
      .on('profile/updated')
      .subscribe((p) => names.push(p.name));
    await user.clear(await screen.findByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Countess Ada');
    await user.selectOptions(screen.getByLabelText('Time_zone'), '(GMT+00:00) UTC');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(names).toEqual(['Countess Ada']);
    expect(storage.getItem('time_zone')).toBe('(GMT+00:00) UTC');
  });

  it('asks for a name before saving', async () => {
    const user = userEvent.setup();
    const { calls } = renderAccount();
    await user.clear(await screen.findByLabelText('Name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  describe('the save banner (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    async function saveWith(reply: { status?: number; body: unknown }) {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      renderAccount({ [`PUT ${USER}`]: () => reply });
      await user.click(await screen.findByRole('button', { name: 'Save' }));
      return user;
    }

    it("shows a success banner for 5 seconds when status is 'success', and leaves the saving state", async () => {
      await saveWith({ body: { status: 'success', message: 'Profile updated.' } });
      const msg = await screen.findByText('Profile updated.');
      expect(intentOf(msg)).toBe('success');
      expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
      act(() => jest.advanceTimersByTime(4900));
      expect(screen.getByText('Profile updated.')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(200));
      expect(screen.queryByText('Profile updated.')).not.toBeInTheDocument();
    });

    it('shows a warning banner for 5 seconds for any other status', async () => {
      await saveWith({ body: { status: 'fail', message: 'Nothing changed.' } });
      const msg = await screen.findByText('Nothing changed.');
      expect(intentOf(msg)).toBe('warning');
      act(() => jest.advanceTimersByTime(5000));
      expect(screen.queryByText('Nothing changed.')).not.toBeInTheDocument();
    });

    it('shows the message of an error reply as a warning for 5 seconds', async () => {
      await saveWith({ status: 400, body: { status: 'error', message: 'That email is taken.' } });
      const msg = await screen.findByText('That email is taken.');
      expect(intentOf(msg)).toBe('warning');
      expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
      act(() => jest.advanceTimersByTime(5000));
      expect(screen.queryByText('That email is taken.')).not.toBeInTheDocument();
    });
  });
});

const NEW_ACCESS = `h.${Buffer.from(JSON.stringify({ exp: 4_000_000_000 })).toString('base64url')}.s`;

describe('My Account: password form', () => {
  async function openPasswordTab() {
    const user = userEvent.setup();
    const r = renderAccount({
      'POST /api/platform/userChangePassword': (req) =>
        req.body.password === 'old-password'
          ? { body: { status: 'success', message: 'Password changed.', access: NEW_ACCESS, refresh: 'new-refresh' } }
          : { status: 400, body: { status: 'error', message: 'Your current password is wrong.' } },
    });
    await user.click(screen.getByRole('tab', { name: 'Password' }));
    await screen.findByLabelText('Current password');
    return { user, ...r };
  }

  it('has current password, new password and confirmation', async () => {
    await openPasswordTab();
    for (const label of ['Current password', 'New password', 'Confirm new password']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('type', 'password');
    }
  });

  it("says 'Passwords do not match.' and disables Save on a mismatch", async () => {
    const { user } = await openPasswordTab();
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-2');
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it("says 'Please complete the required fields.' when a field is missing", async () => {
    const { user, calls } = await openPasswordTab();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please complete the required fields.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please complete the required fields.')).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/userChangePassword')).toHaveLength(0);
  });

  it('posts {newpassword, password} and shows the success message', async () => {
    const { user, calls } = await openPasswordTab();
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(intentOf(await screen.findByText('Password changed.'))).toBe('success');
    const [req] = callsTo(calls, '/api/platform/userChangePassword');
    expect(req.body).toEqual({ newpassword: 'new-password-1', password: 'old-password' });
    expect(req.headers.Authorization).toBe('Bearer access-7');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('keeps this session signed in with the fresh tokens the server hands back (other sessions are signed out)', async () => {
    const storage = loggedIn();
    const user = userEvent.setup();
    renderAccount(
      {
        'POST /api/platform/userChangePassword': () => ({
          body: { status: 'success', message: 'Password changed.', access: NEW_ACCESS, refresh: 'new-refresh' },
        }),
      },
      storage,
    );
    await user.click(screen.getByRole('tab', { name: 'Password' }));
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Password changed.');
    expect(JSON.parse(storage.getItem('auth')!)).toEqual({ expire: 4_000_000_000_000, token: NEW_ACCESS, refresh_token: 'new-refresh' });
    expect(storage.getItem('token')).toBe(NEW_ACCESS);
    expect(storage.getItem('isAuth')).toBe('true');
  });

  it("shows the server's error message", async () => {
    const { user } = await openPasswordTab();
    await user.type(screen.getByLabelText('Current password'), 'not-it');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your current password is wrong.')).toBeInTheDocument();
  });
});
