import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LoginPage from '../../../src/app/pages/LoginPage';
import { MemoryStorage } from '../../../src/app/services/storage';
import { callsTo, renderRoutes, type Handler } from './harness';

const routes = { '/login': <LoginPage />, '/home': <div>Home page</div>, '/register': <div>Register page</div>, '/reset-password': <div>Reset page</div> };

function renderLogin(path = '/login', handlers: Record<string, Handler> = {}, storage = new MemoryStorage()) {
  return renderRoutes({ path, routes, handlers, storage, now: Date.UTC(2031, 5, 1) });
}

const intentOf = (el: HTMLElement) => el.closest('[data-intent]')?.getAttribute('data-intent');

async function signIn(email = 'ada@example.com', password = 'secret-pass') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('Login page', () => {
  it('shows the title, the welcome text, the fields, the links and the button', () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back! Please enter your details.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute('href', '/reset-password');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('has the promo picture and a footer with the copyright and the current year', () => {
    renderLogin();
    expect(screen.getByRole('img', { name: /automation/ })).toBeInTheDocument();
    expect(screen.getByText(/© 2031 Flowmatic/)).toBeInTheDocument();
  });

  it('the links navigate to /reset-password and /register', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('link', { name: 'Forgot password' }));
    expect(screen.getByText('Reset page')).toBeInTheDocument();
  });

  it('shows field messages and sends nothing when the form is empty', async () => {
    const user = userEvent.setup();
    const { calls } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it('logs in: tokens, then the user id, then /home', async () => {
    const storage = new MemoryStorage();
    const { calls } = renderLogin(
      '/login',
      {
        'POST /api/platform/api-jwt-token/': () => ({ body: { access: 'access-1', refresh: 'refresh-1' } }),
        'GET /api/platform/userId': () => ({
          body: { userID: 7, workato_id: 70, is_verify: true, time_zone: '(GMT+01:00) Europe/Paris', email: 'ada@example.com' },
        }),
      },
      storage,
    );
    await signIn(' ada@example.com ', 'secret-pass');
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/api-jwt-token/')[0].body).toEqual({ username: 'ada@example.com', password: 'secret-pass' });
    expect(callsTo(calls, '/api/platform/userId')[0].headers.Authorization).toBe('Bearer access-1');
    expect(storage.getItem('isAuth')).toBe('true');
    expect(storage.getItem('userId')).toBe('7');
    expect(storage.getItem('time_zone')).toBe('(GMT+01:00) Europe/Paris');
  });

  it('disables Sign in while the login is under way', async () => {
    let release!: () => void;
    renderLogin('/login', {
      'POST /api/platform/api-jwt-token/': () => new Promise((r) => (release = () => r({ status: 401, body: { detail: 'No active account' } }))),
    });
    await signIn();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    release();
    expect(await screen.findByText('Wrong email or password.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it("shows 'Wrong email or password.' in an error bar when no access token comes back", async () => {
    renderLogin('/login', { 'POST /api/platform/api-jwt-token/': () => ({ status: 401, body: { detail: 'No active account found' } }) });
    await signIn();
    const msg = await screen.findByText('Wrong email or password.');
    expect(intentOf(msg)).toBe('error');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it("shows 'Please verify your account, then login.' for an unverified user and clears the stored auth", async () => {
    const storage = new MemoryStorage();
    renderLogin(
      '/login',
      {
        'POST /api/platform/api-jwt-token/': () => ({ body: { access: 'a', refresh: 'r' } }),
        'GET /api/platform/userId': () => ({ body: { userID: 7, workato_id: 70, is_verify: false, time_zone: '', email: 'x' } }),
      },
      storage,
    );
    await signIn();
    const msg = await screen.findByText('Please verify your account, then login.');
    expect(intentOf(msg)).toBe('error');
    expect(storage.getItem('isAuth')).toBeNull();
    expect(storage.getItem('auth')).toBeNull();
  });

  it("shows 'Account Created - Check your email to verify your account.' for ?Register=true", () => {
    renderLogin('/login?Register=true');
    expect(screen.getByText('Account Created - Check your email to verify your account.')).toBeInTheDocument();
  });

  it('does not show the account-created note without the query', () => {
    renderLogin('/login?Register=false');
    expect(screen.queryByText('Account Created - Check your email to verify your account.')).not.toBeInTheDocument();
  });
});

describe('Login page: e-mail verification link', () => {
  const link = '/login?verify=true&email=ada%40example.com&token=tok-123';

  it("posts emailVerify with 'Authorization: Token {token}' and shows 'Account verified, please login.'", async () => {
    const { calls } = renderLogin(link, {
      'POST /api/platform/emailVerify': () => ({ body: { status: 'success', message: 'Verified' } }),
    });
    const msg = await screen.findByText('Account verified, please login.');
    expect(intentOf(msg)).toBe('success');
    const sent = callsTo(calls, '/api/platform/emailVerify');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ email: 'ada@example.com' });
    expect(sent[0].headers.Authorization).toBe('Token tok-123');
    // the one-time token leaves the address bar
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(screen.getByText('Account verified, please login.')).toBeInTheDocument();
  });

  it("shows 'Account verification failed, please try again.' on a 401, without ending any session", async () => {
    const { navigator } = renderLogin(link, {
      'POST /api/platform/emailVerify': () => ({ status: 401, body: { status: 'error', message: 'Invalid token' } }),
    });
    const msg = await screen.findByText('Account verification failed, please try again.');
    expect(intentOf(msg)).toBe('error');
    expect(navigator.assign).not.toHaveBeenCalled();
  });

  it('shows the server message on other errors', async () => {
    renderLogin(link, {
      'POST /api/platform/emailVerify': () => ({ status: 400, body: { status: 'error', message: 'This account is already verified.' } }),
    });
    expect(await screen.findByText('This account is already verified.')).toBeInTheDocument();
  });

  it('does nothing without a token or e-mail', async () => {
    const { calls } = renderLogin('/login?verify=true&email=ada%40example.com');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);
  });
});
