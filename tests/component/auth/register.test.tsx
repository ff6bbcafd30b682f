import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RegisterPage from '../../../src/app/pages/RegisterPage';
import { callsTo, renderRoutes, type Handler } from './harness';

const routes = { '/register': <RegisterPage />, '/login': <div>Login page</div> };

function renderRegister(handlers: Record<string, Handler> = {}) {
  return renderRoutes({ path: '/register', routes, handlers });
}

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  values: Partial<Record<'name' | 'email' | 'company' | 'password' | 'confirm', string>>,
  role?: string,
  terms = true,
) {
  // each value pasted into its field, as a user filling a form from elsewhere would: typed a key at
  // a time, the whole form rendered again on every key (some 3 s a test); typing itself is the
  // password test's
  const paste = async (label: string, text: string) => {
    await user.click(screen.getByLabelText(label));
    await user.paste(text);
  };
  if (values.name) await paste('Name', values.name);
  if (values.email) await paste('Company Email', values.email);
  if (role) await user.selectOptions(screen.getByLabelText('Your Role'), role);
  if (values.company) await paste('Company Name', values.company);
  if (values.password) await paste('Password', values.password);
  if (values.confirm) await paste('Confirm Password', values.confirm);
  if (terms) await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }));
}

const complete = { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Ltd', password: 'correct-horse', confirm: 'correct-horse' };
const submit = () => screen.getByRole('button', { name: 'Create account' });

describe('Register page', () => {
  it('shows the heading, the intro, every field, the terms link and the login link', () => {
    renderRegister();
    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    expect(screen.getByText("Let's get started your 30-day free trial.")).toBeInTheDocument();
    for (const label of ['Name', 'Company Email', 'Your Role', 'Company Name', 'Password', 'Confirm Password']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Company Email')).toHaveAttribute('type', 'email');
    expect(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('offers the sign-up role labels of the register schema', () => {
    renderRegister();
    const options = within(screen.getByLabelText('Your Role'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'Select your role',
      'Chief Product Officer',
      'Data Scientist',
      'Machine Learning Engineer',
      'DevOps/Cloud',
      'Software Developer',
      'Product Manager',
      'Business Manager',
      'Sales/Marketing',
      'Other',
    ]);
  });

  it('keeps Create account disabled until both passwords are filled and equal', async () => {
    const user = userEvent.setup();
    renderRegister();
    expect(submit()).toBeDisabled();
    await user.type(screen.getByLabelText('Password'), 'secret-one');
    expect(submit()).toBeDisabled();
    await user.type(screen.getByLabelText('Confirm Password'), 'secret-two');
    expect(submit()).toBeDisabled();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'secret-one');
    expect(submit()).toBeEnabled();
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument();
  });

  it('asks to agree to the terms first', async () => {
    const user = userEvent.setup();
    const { calls } = renderRegister();
    await fill(user, complete, 'Data Scientist', false);
    await user.click(submit());
    expect(await screen.findByText('Please read and agree to the Terms and Conditions')).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/register')).toHaveLength(0);
  });

  it('asks for a role', async () => {
    const user = userEvent.setup();
    const { calls } = renderRegister();
    await fill(user, complete);
    await user.click(submit());
    expect(await screen.findByText('Please choose your role')).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/register')).toHaveLength(0);
  });

  it.each(['name', 'email', 'company'] as const)('asks to fill out all fields when %s is empty', async (field) => {
    const user = userEvent.setup();
    const { calls } = renderRegister();
    await fill(user, { ...complete, [field]: '' }, 'Other');
    await user.click(submit());
    expect(await screen.findByText('Please fill out all fields')).toBeInTheDocument();
    expect(callsTo(calls, '/api/platform/register')).toHaveLength(0);
  });

  it('opens the terms in a dialog, and "I agree" ticks the box', async () => {
    const user = userEvent.setup({ delay: null });
    renderRegister();
    await user.click(screen.getByRole('button', { name: 'Terms and Conditions' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('The free trial')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'I agree' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ })).toBeChecked();
  });

  it('sends the registration payload and goes to /login?Register=true', async () => {
    const user = userEvent.setup();
    const { calls } = renderRegister({
      'POST /api/platform/register': () => ({ status: 201, body: { status: 'success', id: 12, message: 'Registered' } }),
    });
    await fill(user, complete, 'Software Developer');
    await user.click(submit());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?Register=true'));
    const [req] = callsTo(calls, '/api/platform/register');
    expect(req.method).toBe('POST');
    expect(req.body).toEqual({
      name: 'Ada Lovelace',
      username: 'ada@example.com',
      email: 'ada@example.com',
      role: 'dev',
      company: 'Analytical Ltd',
      password: 'correct-horse',
      accept_terms: true,
    });
    expect(req.headers.Authorization).toBeUndefined();
  });

  it('shows the server message as a warning on an error status', async () => {
    const user = userEvent.setup();
    renderRegister({
      'POST /api/platform/register': () => ({ status: 400, body: { status: 'error', message: 'A user with that email already exists.' } }),
    });
    await fill(user, complete, 'Other');
    await user.click(submit());
    const msg = await screen.findByText('A user with that email already exists.');
    expect(msg.closest('[data-intent]')).toHaveAttribute('data-intent', 'warning');
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    expect(submit()).toBeEnabled();
  });

  it('shows the password rule of the schema', async () => {
    const user = userEvent.setup();
    renderRegister();
    await fill(user, { ...complete, password: 'short', confirm: 'short' }, 'Other');
    await user.click(submit());
    expect(await screen.findByText('Passwords must be at least 8 characters long.')).toBeInTheDocument();
  });
});
