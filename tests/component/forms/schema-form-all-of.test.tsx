import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { retrieveSchema, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { SchemaForm } from '../../../src/app/forms';
import { compileForm } from '../../../schemas/generate-form-validators';

// In the browser build @rjsf/utils' own allOf merger is src/app/forms/all-of-merge-stub.ts, and the
// real one is src/app/forms/all-of-merge.ts, a chunk <SchemaForm> loads for a schema with allOf.
// Jest loads rjsf's CommonJS build, which builds its merger with @x0k/json-schema-merge's
// createShallowAllOfMerge when @rjsf/utils is first imported: the first merger built is rjsf's,
// and it is made the stand-in here, as in the build (checked by the first test below).
jest.mock('@x0k/json-schema-merge', () => {
  const actual = jest.requireActual('@x0k/json-schema-merge');
  let built = 0;
  return {
    ...actual,
    createShallowAllOfMerge: (...args: unknown[]) =>
      built++ === 0 ? jest.requireActual('../../../src/app/forms/all-of-merge-stub').default : actual.createShallowAllOfMerge(...args),
  };
});

/** How many times the merger's module (its chunk, in the build) was loaded. */
let mockMergerLoads = 0;
jest.mock('../../../src/app/forms/all-of-merge', () => {
  mockMergerLoads++;
  return jest.requireActual('../../../src/app/forms/all-of-merge');
});

interface Contact {
  email?: string;
  name?: string;
  plan?: string;
  address?: { street?: string; city?: string };
}

const plainSchema: RJSFSchema = {
  $id: 'test/plain-contact',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    plan: {
      type: 'string',
      title: 'Plan',
      oneOf: [
        { const: 'free', title: 'Free' },
        { const: 'pro', title: 'Pro' },
      ],
    },
  },
};

/** The fields come from allOf only: at the root (one branch a $ref into definitions) and in $defs. */
const allOfSchema: RJSFSchema = {
  $id: 'test/all-of-contact',
  type: 'object',
  definitions: {
    email: { type: 'object', required: ['email'], properties: { email: { type: 'string', title: 'Email', format: 'email' } } },
  },
  $defs: {
    address: {
      type: 'object',
      allOf: [{ properties: { street: { type: 'string', title: 'Street' } } }, { properties: { city: { type: 'string', title: 'City' } }, required: ['city'] }],
    },
  },
  allOf: [
    { $ref: '#/definitions/email' },
    { properties: { name: { type: 'string', title: 'Name', minLength: 2 }, address: { $ref: '#/$defs/address', title: 'Address' } }, required: ['name'] },
  ],
};

function renderForm(schema: RJSFSchema, onSubmit: (data: Contact) => void) {
  return render(
    <FluentProvider theme={webLightTheme}>
      <SchemaForm<Contact> schema={schema} precompiled={compileForm(schema)} onSubmit={onSubmit} submitText="Save" />
    </FluentProvider>,
  );
}

describe('SchemaForm and the allOf merger loaded on demand', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('renders and submits a schema without allOf at once, without loading the merger', async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn();
    renderForm(plainSchema, onSubmit);
    // no loading step: the fields are there on the first render
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'A');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must be at least 2 characters long.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'da');
    await user.selectOptions(await screen.findByLabelText('Plan'), 'Pro');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', plan: 'pro' });
    expect(mockMergerLoads).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it("has rjsf's own merger stand in as in the build: nothing merged before the real one is loaded", () => {
    const merged = retrieveSchema(validator, allOfSchema, allOfSchema, {});
    expect(merged).not.toHaveProperty('properties.name'); // the allOf was dropped…
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('could not merge'),
      expect.objectContaining({ message: expect.stringMatching(/allOf merger is not loaded/) }),
    );
    expect(mockMergerLoads).toBe(0);
  });

  it('loads the merger for a schema with allOf, then shows the merged fields and validates them', async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn();
    renderForm(allOfSchema, onSubmit);
    // the merged fields, from the root allOf, its $ref into definitions and the allOf in $defs
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(mockMergerLoads).toBe(1);
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Street')).toBeInTheDocument();
    expect(screen.getByLabelText('City')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Name'), 'A');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Must be at least 2 characters long.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Name'), 'da');
    await user.type(screen.getByLabelText('Street'), '1 Analytical Row');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // the nested allOf's `required` applies too
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('City'), 'London');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ email: 'ada@example.com', name: 'Ada', address: { street: '1 Analytical Row', city: 'London' } }),
    );
    // every rjsf call site got the merger: none fell back to the stand-in (which would warn)
    expect(warn).not.toHaveBeenCalled();
    expect(mockMergerLoads).toBe(1);
  });
});
