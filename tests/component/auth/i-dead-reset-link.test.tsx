import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LoginPage from '../../../src/app/pages/LoginPage';
import ResetPasswordPage from '../../../src/app/pages/ResetPasswordPage';
import { callsTo, renderRoutes, type Handler } from './harness';

const routes = { '/reset-password': <ResetPasswordPage />, '/login': <LoginPage /> };
const resetLink = '/reset-password?token=tok-9&access=acc-1&username=ada%40example.com';
const CHECK = '/api/platform/checkResetLink';

function renderReset(handlers: Record<string, Handler>) {
  return renderRoutes({ path: resetLink, routes, handlers });
}

describe('Password reset: a dead link says so when the page opens (issue 25)', () => {
  it('checks the link once with its token and access, and shows at once that it was used, with no form to type into', async () => {
    const { calls } = renderReset({
      [`POST ${CHECK}`]: () => ({ body: { status: 'success', valid: false, reason: 'used', message: 'This password reset link has already been used.' } }),
    });
    expect(await screen.findByRole('heading', { name: 'This link can no longer be used' })).toBeInTheDocument();
    expect(screen.getByText(/already been used/).textContent).toBe(
      'This password reset link has already been used. Ask for a new link and use the newest e-mail we send you.',
    );
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    const checks = callsTo(calls, CHECK);
    expect(checks).toHaveLength(1);
    expect(checks[0].body).toEqual({ access: 'acc-1' });
    expect(checks[0].headers.Authorization).toBe('Token tok-9');
    expect(callsTo(calls, '/api/platform/resetPassword')).toHaveLength(0);
  });

  it('an expired link leads to the request form, where a new link can be asked for', async () => {
    const user = userEvent.setup();
    const { calls } = renderReset({
      [`POST ${CHECK}`]: () => ({ body: { status: 'success', valid: false, reason: 'expired', message: 'This password reset link has expired.' } }),
      'POST /api/platform/forgetPassword': () => ({ body: { status: 'success', message: 'sent' } }),
    });
    expect(await screen.findByText(/has expired\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password$/));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/forgetPassword')[0].body).toEqual({ email: 'ada@example.com' });
  });

  it('a live link keeps the form', async () => {
    const { calls } = renderReset({ [`POST ${CHECK}`]: () => ({ body: { status: 'success', valid: true } }) });
    await waitFor(() => expect(callsTo(calls, CHECK)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
    expect(screen.queryByText('This link can no longer be used')).not.toBeInTheDocument();
  });

  it('when the check itself fails (server busy), the form stays and the reset answers for itself', async () => {
    const { calls } = renderReset({ [`POST ${CHECK}`]: () => ({ status: 429, body: { status: 'error', message: 'Too many requests.' } }) });
    await waitFor(() => expect(callsTo(calls, CHECK)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
    expect(screen.queryByText('Too many requests.')).not.toBeInTheDocument();
  });
});
