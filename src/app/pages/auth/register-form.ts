import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import registerSchema from '../../../../schemas/auth/register.schema.json';
import { AuthText, UNKNOWN_COMPANY } from './messages';

/** What the Register screen asks for (spec section 2). */
export interface RegisterForm {
  name?: string;
  email?: string;
  role?: string;
  company?: string;
  password?: string;
  confirm_password?: string;
  accept_terms?: boolean;
}

/** The body of POST /api/platform/register (spec section 3, Registration payload), from its schema. */
export type { RegisterPayload } from '../../../core/wire-types';
import type { RegisterPayload } from '../../../core/wire-types';

const p = registerSchema.properties;

/**
 * The form's schema, built from the request schema the server validates with (so the role list,
 * the e-mail format and the password rule live in one place). Presence rules are not `required`
 * here: the spec fixes their messages, which `validateRegistration` produces.
 */
export const registerFormSchema: RJSFSchema = {
  $id: 'auth/register-form',
  type: 'object',
  properties: {
    name: { type: 'string', title: p.name.title, maxLength: p.name.maxLength },
    email: { type: 'string', title: p.email.title, format: 'email', maxLength: p.email.maxLength },
    role: { type: 'string', title: p.role.title, oneOf: p.role.oneOf },
    company: { type: 'string', title: p.company.title, maxLength: p.company.maxLength },
    password: {
      type: 'string',
      title: p.password.title,
      minLength: p.password.minLength,
      maxLength: p.password.maxLength,
      errorMessage: p.password.errorMessage,
    },
    confirm_password: { type: 'string', title: 'Confirm Password', maxLength: p.password.maxLength },
    accept_terms: { type: 'boolean', title: p.accept_terms.title },
  },
} as RJSFSchema;

/** The sign-up role labels, in the schema's order. */
export const signupRoles = p.role.oneOf.map((o) => ({ value: o.const, label: o.title }));

export const registerUiSchema: UiSchema = {
  'ui:options': { columns: 2 },
  name: { 'ui:placeholder': 'Enter your name', 'ui:autocomplete': 'name', 'ui:options': { fullWidth: true } },
  email: { 'ui:widget': 'email', 'ui:placeholder': 'you@company.com', 'ui:autocomplete': 'email', 'ui:options': { fullWidth: true } },
  role: { 'ui:placeholder': 'Select your role', 'ui:options': { fullWidth: true } },
  company: { 'ui:placeholder': 'Enter your company name', 'ui:autocomplete': 'organization', 'ui:options': { fullWidth: true } },
  password: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
  confirm_password: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
  accept_terms: { 'ui:widget': 'terms', 'ui:options': { fullWidth: true } },
};

const blank = (v: string | undefined) => !v || !v.trim();

/** Spec section 5, Registration, in the spec's order; null when the form may be sent. */
export function validateRegistration(f: RegisterForm): string | null {
  if (f.accept_terms !== true) return AuthText.acceptTerms;
  if (blank(f.role)) return AuthText.chooseRole;
  if (blank(f.name) || blank(f.email) || blank(f.company)) return AuthText.fillAllFields;
  if ((f.password ?? '') !== (f.confirm_password ?? '')) return AuthText.passwordsDoNotMatch;
  return null;
}

/** The live message under Confirm Password. */
export function passwordMismatch(password: string | undefined, confirm: string | undefined): string | null {
  return confirm && password !== confirm ? AuthText.passwordsDoNotMatch : null;
}

/** Submit is enabled only when both passwords are non-empty and equal (and nothing is being sent). */
export function canSubmitPasswords(password: string | undefined, confirm: string | undefined): boolean {
  return Boolean(password) && Boolean(confirm) && password === confirm;
}

/** The request body; the username is the e-mail, and an empty company is sent as 'Unknown'. */
export function buildRegisterPayload(f: RegisterForm): RegisterPayload {
  const email = (f.email ?? '').trim();
  return {
    name: (f.name ?? '').trim(),
    username: email,
    email,
    // the form validates against the same schema, so the role is one of its codes
    role: (f.role ?? '') as RegisterPayload['role'],
    company: (f.company ?? '').trim() || UNKNOWN_COMPANY,
    password: f.password ?? '',
    accept_terms: true,
  };
}
