import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { SchemaForm, type SchemaFormProps } from '../../../src/app/forms';
import { compileForm } from '../../../schemas/generate-form-validators';

interface Profile {
  name?: string;
  email?: string;
  secret?: string;
  colour?: string;
  bio?: string;
  news?: boolean;
}

const schema: RJSFSchema = {
  $id: 'test/profile',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Full name', description: 'As on your passport.' },
    email: { type: 'string', title: 'Work email', format: 'email' },
    secret: { type: 'string', title: 'Secret', minLength: 8, errorMessage: 'Secrets are 8 characters or more.' },
    colour: {
      type: 'string',
      title: 'Colour',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    bio: { type: 'string', title: 'About you' },
    news: { type: 'boolean', title: 'Send me news' },
  },
} as RJSFSchema;

/** The schema compiled as `npm run forms:validators` compiles the app's forms. */
const profileForm = compileForm(schema);

const uiSchema: UiSchema = {
  'ui:options': { columns: 2 },
  email: { 'ui:widget': 'email' },
  secret: { 'ui:widget': 'password' },
  bio: { 'ui:widget': 'textarea', 'ui:options': { fullWidth: true } },
};

/** Renders the form and waits for its choice widgets (a chunk of their own, loaded on first use). */
async function renderForm(props: Partial<SchemaFormProps<Profile>> = {}) {
  const onSubmit = jest.fn();
  render(
    <FluentProvider theme={webLightTheme}>
      <SchemaForm<Profile> schema={schema} precompiled={profileForm} uiSchema={uiSchema} onSubmit={onSubmit} submitText="Save profile" {...props} />
    </FluentProvider>,
  );
  await screen.findByLabelText('Colour');
  return { onSubmit };
}

describe('SchemaForm with the Fluent theme', () => {
  it('renders each widget as a labelled Fluent control', async () => {
    await renderForm();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Full name').closest('.fui-Input')).not.toBeNull();
    expect(screen.getByLabelText('Work email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Secret')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Colour').tagName).toBe('SELECT');
    expect(screen.getByLabelText('About you').tagName).toBe('TEXTAREA');
    expect(screen.getByRole('checkbox', { name: 'Send me news' })).not.toBeChecked();
    expect(screen.getByText('As on your passport.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save profile' })).toHaveAttribute('type', 'submit');
  });

  it('shows readable field errors, focuses the first invalid field, and does not submit', async () => {
    const user = userEvent.setup();
    const { onSubmit } = await renderForm();
    await user.type(screen.getByLabelText('Work email'), 'nope');
    await user.type(screen.getByLabelText('Secret'), 'short');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Secrets are 8 characters or more.')).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Full name')).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the data from the keyboard (Enter in a field)', async () => {
    const user = userEvent.setup();
    const { onSubmit } = await renderForm();
    await user.type(screen.getByLabelText('Full name'), 'Ada');
    await user.selectOptions(screen.getByLabelText('Colour'), 'Green');
    await user.click(screen.getByRole('checkbox', { name: 'Send me news' }));
    await user.type(screen.getByLabelText('Full name'), '{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', colour: 'g', news: true });
  });

  it('does not pre-select the first option of a oneOf choice', async () => {
    const user = userEvent.setup();
    const { onSubmit } = await renderForm();
    expect((screen.getByLabelText('Colour') as HTMLSelectElement).value).toBe('');
    await user.type(screen.getByLabelText('Full name'), 'Ada{Enter}');
    expect(onSubmit.mock.calls[0][0].colour).toBeUndefined();
  });

  it('shows the whole-form message of validate in a MessageBar and blocks the submit', async () => {
    const user = userEvent.setup();
    const validate = jest.fn((d: Partial<Profile>) => (d.news ? null : 'Please tick the news box'));
    const { onSubmit } = await renderForm({ validate });
    await user.type(screen.getByLabelText('Full name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    const msg = await screen.findByText('Please tick the news box');
    expect(msg.closest('.fui-MessageBar')).not.toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(validate).toHaveBeenLastCalledWith({ name: 'Ada' });
    await user.click(screen.getByRole('checkbox', { name: 'Send me news' }));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows live field errors and a disabled or busy submit button', () => {
    const { rerender } = render(
      <FluentProvider theme={webLightTheme}>
        <SchemaForm<Profile>
          schema={schema}
          precompiled={profileForm}
          onSubmit={jest.fn()}
          submitText="Go"
          fieldErrors={{ secret: 'Too guessable.' }}
          submitDisabled
        />
      </FluentProvider>,
    );
    expect(screen.getByText('Too guessable.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go' })).toBeDisabled();
    rerender(
      <FluentProvider theme={webLightTheme}>
        <SchemaForm<Profile> schema={schema} precompiled={profileForm} onSubmit={jest.fn()} submitText="Go" busy />
      </FluentProvider>,
    );
    expect(screen.queryByText('Too guessable.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Go' })).toHaveAttribute('aria-busy', 'true');
  });

  it('lets the user reveal a password without submitting', async () => {
    const user = userEvent.setup();
    const { onSubmit } = await renderForm();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Secret')).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText('Secret')).toHaveAttribute('type', 'password');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('loads the precompiled validator of a schema given without one, by its $id', async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn();
    const login: RJSFSchema = (await import('../../../schemas/auth/login.schema.json')).default as RJSFSchema;
    render(
      <FluentProvider theme={webLightTheme}>
        <SchemaForm<{ username?: string; password?: string }> schema={login} onSubmit={onSubmit} submitText="Sign in" />
      </FluentProvider>,
    );
    await user.type(await screen.findByLabelText('Email'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Must be at least 3 characters long.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a schema that has no precompiled validator, saying how to make one', () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() =>
        render(
          <FluentProvider theme={webLightTheme}>
            <SchemaForm<Profile> schema={{ ...schema, $id: 'test/unknown' }} onSubmit={jest.fn()} submitText="Go" />
          </FluentProvider>,
        ),
      ).toThrow(/"test\/unknown" has no precompiled validator.*npm run forms:validators/);
    } finally {
      quiet.mockRestore();
    }
  });
});
