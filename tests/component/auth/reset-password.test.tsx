import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LoginPage from '../../../src/app/pages/LoginPage';
import ResetPasswordPage from '../../../src/app/pages/ResetPasswordPage';
import { callsTo, renderRoutes, type Handler } from './harness';

const routes = { '/reset-password': <ResetPasswordPage />, '/login': <LoginPage /> };
const resetLink = '/reset-password?token=tok-9&access=acc-1&username=ada%40example.com';
const intentOf = (el: HTMLElement) => el.closest('[data-intent]')?.getAttribute('data-intent');

function renderReset(path: string, handlers: Record<string, Handler> = {}) {
  return renderRoutes({ path, routes, handlers });
}

describe('Password reset: request form', () => {
  it('shows the e-mail form when token, access or username is missing', () => {
    for (const path of ['/reset-password', '/reset-password?token=a&access=b', '/reset-password?access=b&username=c', '/reset-password?token=a&username=c']) {
      const { unmount } = renderReset(path);
      expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
      expect(screen.queryByText('Reset your password')).not.toBeInTheDocument();
      unmount();
    }
  });

  it("posts forgetPassword and shows the 'received' confirmation as one honest sentence (issue 8, item 5)", async () => {
    const user = userEvent.setup();
    const { calls } = renderReset('/reset-password', {
      'POST /api/platform/forgetPassword': () => ({ body: { status: 'success', message: 'Password reset link sent to your email.' } }),
    });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText(/If an account exists for/).textContent).toBe(
      'If an account exists for ada@example.com, we have sent it a link to reset the password.',
    );
    expect(screen.queryByText('Password reset link sent to your email.')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    const [req] = callsTo(calls, '/api/platform/forgetPassword');
    expect(req.body).toEqual({ email: 'ada@example.com' });
    expect(req.headers.Authorization).toBeUndefined();
  });

  it('shows the message of an error status in a warning', async () => {
    const user = userEvent.setup();
    renderReset('/reset-password', {
      'POST /api/platform/forgetPassword': () => ({ body: { status: 'error', message: 'No account uses that email.' } }),
    });
    await user.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const msg = await screen.findByText('No account uses that email.');
    expect(intentOf(msg)).toBe('warning');
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });

  it('shows the message of a 4xx error reply in a warning', async () => {
    const user = userEvent.setup();
    renderReset('/reset-password', {
      'POST /api/platform/forgetPassword': () => ({ status: 400, body: { status: 'error', message: 'Too many requests for this email.' } }),
    });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(intentOf(await screen.findByText('Too many requests for this email.'))).toBe('warning');
  });

  it('checks the e-mail format before sending', async () => {
    const user = userEvent.setup();
    const { calls } = renderReset('/reset-password');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('Password reset: reset form', () => {
  it("shows 'Reset your password' with password, confirm and Update when token, access and username are present", () => {
    renderReset(resetLink);
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'password');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
  });

  it("says 'Passwords do not match.' and keeps Update disabled on a mismatch", async () => {
    const user = userEvent.setup();
    renderReset(resetLink);
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-2');
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1');
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  it("posts resetPassword {access, password} with 'Authorization: Token {token}' and goes to /login with a note", async () => {
    const user = userEvent.setup();
    const { calls, navigator } = renderReset(resetLink, {
      'POST /api/platform/resetPassword': () => ({ body: { status: 'success', message: 'Your password has been reset.' } }),
    });
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(intentOf(screen.getByText('Your password has been reset.'))).toBe('success');
    const [req] = callsTo(calls, '/api/platform/resetPassword');
    expect(req.body).toEqual({ access: 'acc-1', password: 'new-password-1' });
    expect(req.headers.Authorization).toBe('Token tok-9');
    expect(navigator.assign).not.toHaveBeenCalled();
  });

  it('shows the message of an error status in a warning banner', async () => {
    const user = userEvent.setup();
    const { navigator } = renderReset(resetLink, {
      'POST /api/platform/resetPassword': () => ({ status: 401, body: { status: 'error', message: 'This reset link has expired.' } }),
    });
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(intentOf(await screen.findByText('This reset link has expired.'))).toBe('warning');
    expect(screen.getByTestId('location')).toHaveTextContent('/reset-password');
    expect(navigator.assign).not.toHaveBeenCalled();
  });

  it('shows a 200 reply with an error status as a warning too', async () => {
    const user = userEvent.setup();
    renderReset(resetLink, {
      'POST /api/platform/resetPassword': () => ({ body: { status: 'error', message: 'Token already used.' } }),
    });
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(intentOf(await screen.findByText('Token already used.'))).toBe('warning');
  });
});
