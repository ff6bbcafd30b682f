import registerSchema from '../../../schemas/auth/register.schema.json';
import {
  buildRegisterPayload,
  canSubmitPasswords,
  passwordMismatch,
  registerFormSchema,
  signupRoles,
  validateRegistration,
  type RegisterForm,
} from '../../../src/app/pages/auth/register-form';
import { precompiledValidator } from '../../../src/app/forms/validator';
import { compileForm } from '../../../schemas/generate-form-validators';
import type { RJSFSchema } from '@rjsf/utils';

const complete: RegisterForm = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'ds',
  company: 'Analytical Ltd',
  password: 'correct-horse',
  confirm_password: 'correct-horse',
  accept_terms: true,
};

describe('registration rules (spec section 5)', () => {
  it('accepts a complete form', () => {
    expect(validateRegistration(complete)).toBeNull();
  });

  it('checks the terms first, then the role, then the fields', () => {
    expect(validateRegistration({})).toBe('Please read and agree to the Terms and Conditions');
    expect(validateRegistration({ ...complete, accept_terms: false, role: undefined })).toBe('Please read and agree to the Terms and Conditions');
    expect(validateRegistration({ ...complete, role: undefined, name: '' })).toBe('Please choose your role');
    expect(validateRegistration({ ...complete, role: '' })).toBe('Please choose your role');
  });

  it.each(['name', 'email', 'company'] as const)('asks to fill out all fields when %s is empty or blank', (field) => {
    expect(validateRegistration({ ...complete, [field]: '' })).toBe('Please fill out all fields');
    expect(validateRegistration({ ...complete, [field]: '   ' })).toBe('Please fill out all fields');
    expect(validateRegistration({ ...complete, [field]: undefined })).toBe('Please fill out all fields');
  });

  it('rejects different passwords', () => {
    expect(validateRegistration({ ...complete, confirm_password: 'other' })).toBe('Passwords do not match.');
  });

  it('enables submit only when both passwords are non-empty and equal', () => {
    expect(canSubmitPasswords(undefined, undefined)).toBe(false);
    expect(canSubmitPasswords('', '')).toBe(false);
    expect(canSubmitPasswords('abc', undefined)).toBe(false);
    expect(canSubmitPasswords(undefined, 'abc')).toBe(false);
    expect(canSubmitPasswords('abc', 'abd')).toBe(false);
    expect(canSubmitPasswords('abc', 'abc')).toBe(true);
  });

  it("shows 'Passwords do not match.' once a confirmation differs", () => {
    expect(passwordMismatch('abc', undefined)).toBeNull();
    expect(passwordMismatch('abc', 'ab')).toBe('Passwords do not match.');
    expect(passwordMismatch('abc', 'abc')).toBeNull();
  });
});

describe('registration payload (spec section 3)', () => {
  it('sends name, username and email (the same e-mail), role, company, password and accept_terms true', () => {
    expect(buildRegisterPayload(complete)).toEqual({
      name: 'Ada Lovelace',
      username: 'ada@example.com',
      email: 'ada@example.com',
      role: 'ds',
      company: 'Analytical Ltd',
      password: 'correct-horse',
      accept_terms: true,
    });
  });

  it("sends an empty company as 'Unknown'", () => {
    expect(buildRegisterPayload({ ...complete, company: '' }).company).toBe('Unknown');
    expect(buildRegisterPayload({ ...complete, company: '   ' }).company).toBe('Unknown');
    expect(buildRegisterPayload({ ...complete, company: undefined }).company).toBe('Unknown');
  });

  it('trims the name, e-mail and company, and never sends the confirmation', () => {
    const p = buildRegisterPayload({ ...complete, name: ' Ada ', email: ' ada@example.com ', company: ' Acme ' });
    expect(p).toMatchObject({ name: 'Ada', username: 'ada@example.com', email: 'ada@example.com', company: 'Acme' });
    expect(p).not.toHaveProperty('confirm_password');
  });

  it('matches the request schema the server validates with', () => {
    const schema = registerSchema as RJSFSchema;
    const formValidator = precompiledValidator(compileForm(schema));
    expect(formValidator.isValid(schema as RJSFSchema, buildRegisterPayload(complete), schema as RJSFSchema)).toBe(true);
    expect(formValidator.isValid(schema as RJSFSchema, buildRegisterPayload({ ...complete, company: '' }), schema as RJSFSchema)).toBe(true);
  });

  it('offers the sign-up roles of the register schema', () => {
    expect(signupRoles.map((r) => r.value)).toEqual(['cpo', 'ds', 'mlops', 'devops', 'dev', 'pm', 'bm', 'sm', 'other']);
    expect((registerFormSchema.properties?.role as RJSFSchema).oneOf).toBe(registerSchema.properties.role.oneOf);
  });
});
