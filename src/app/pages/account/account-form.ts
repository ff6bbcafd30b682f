import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import changePasswordSchema from '../../../../schemas/account/change-password.schema.json';
import { TIME_ZONE_LABELS, userUpdateSchema } from '../../../core/account-schemas';
import type { UserProfile } from '../../../core/domain';

/** Spec texts of the account screens, word for word. */
export const AccountText = {
  passwordsDoNotMatch: 'Passwords do not match.',
  completeRequired: 'Please complete the required fields.',
  comingSoon: 'Something awesome will be here soon!',
} as const;

/** How long the save banner stays (spec section 9: account banner 5 s). */
export const ACCOUNT_BANNER_MS = 5000;

/** The tabs of My Account (spec section 2); 'my-team' is the extra view, 'api-keys' the public API's keys (issue 23). */
export type AccountTab = 'my-details' | 'my-plan' | 'my-billing' | 'password-form' | 'my-team' | 'api-keys';
export const DEFAULT_ACCOUNT_TAB: AccountTab = 'my-details';

// ---------------------------------------------------------------------------------------------
// My details

export interface DetailsForm {
  name?: string;
  email?: string;
  role?: number;
  company?: string;
  currency?: string;
  time_zone?: string;
  creation_date?: string;
}

/** The body of PUT /api/platform/users/{id}/ (spec section 3, Update payload). */
export interface UpdatePayload {
  name: string;
  currency: string;
  time_zone: string;
  role: number;
  email?: string;
}

/** The update with the current password, sent when the e-mail changes (issue 7, item 2). */
export interface EmailChangePayload extends UpdatePayload {
  email: string;
  password: string;
}

/** The profile GET as this screen reads it: `Pending_email` is there while a change waits. */
export type AccountProfile = UserProfile & { Pending_email?: string | null };

/** The banner while a new address waits for its confirmation link. */
export function pendingEmailText(pending: string): string {
  return `Check your new address to confirm the change. Until you open the link we sent to ${pending}, your current address stays in force.`;
}

const u = userUpdateSchema.properties;

/** The time zone labels of schemas/account/time-zones.json (the label is the stored value). */
export const timeZoneLabels: string[] = TIME_ZONE_LABELS;

/** "March 5, 2026" for an ISO date; the raw value when it is not a date. */
export function formatCreationDate(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * The details form's schema, built from the update schema the server validates with. Values the
 * lists do not hold (an older time zone, a retired role) are added so the user's data shows as is.
 */
export function detailsSchema(profile: Pick<UserProfile, 'Role' | 'Time_zone'>): RJSFSchema {
  const roles = [...u.role.oneOf];
  if (typeof profile.Role === 'number' && !roles.some((r) => r.const === profile.Role)) {
    roles.push({ const: profile.Role, title: `Role ${profile.Role}` });
  }
  const zones = [...timeZoneLabels];
  if (profile.Time_zone && !zones.includes(profile.Time_zone)) zones.unshift(profile.Time_zone);
  return {
    $id: 'account/details-form',
    type: 'object',
    required: ['name', 'email', 'currency', 'time_zone'],
    properties: {
      name: { ...u.name },
      email: { ...u.email },
      role: { type: 'integer', title: u.role.title, oneOf: roles, readOnly: true },
      company: { type: 'string', title: 'Company', readOnly: true },
      currency: { ...u.currency },
      time_zone: { type: 'string', title: u.time_zone.title, enum: zones },
      creation_date: { type: 'string', title: 'Creation_date', readOnly: true },
    },
  } as RJSFSchema;
}

/**
 * The details schema as compiled at build time (schemas/generate-form-validators.ts): the lists
 * without a user's extra role or time zone, which the form's validator adds as choices.
 */
export const baseDetailsSchema: RJSFSchema = detailsSchema({ Role: u.role.oneOf[0].const, Time_zone: '' });

export const detailsUiSchema: UiSchema = {
  'ui:options': { columns: 2 },
  name: { 'ui:autocomplete': 'name' },
  email: { 'ui:widget': 'email', 'ui:autocomplete': 'email' },
  role: { 'ui:disabled': true, 'ui:readonly': true, 'ui:help': 'Your role was chosen at sign-up.' },
  company: { 'ui:readonly': true },
  currency: { 'ui:placeholder': 'Select a currency' },
  time_zone: { 'ui:placeholder': 'Select a time zone' },
  creation_date: { 'ui:readonly': true },
};

export function toDetailsForm(p: UserProfile): DetailsForm {
  return {
    name: p.Name ?? undefined,
    email: p.Email ?? undefined,
    role: typeof p.Role === 'number' ? p.Role : undefined,
    company: p.Company?.name ?? '',
    currency: p.Currency ?? undefined,
    time_zone: p.Time_zone ?? undefined,
    creation_date: formatCreationDate(p.Creation_date),
  };
}

/** name, currency, time_zone, role, plus email only when it changed (spec section 5). */
export function buildUpdatePayload(original: Pick<UserProfile, 'Email' | 'Role'>, form: DetailsForm): UpdatePayload {
  const payload: UpdatePayload = {
    name: (form.name ?? '').trim(),
    currency: form.currency ?? '',
    time_zone: form.time_zone ?? '',
    // Role is read-only on this screen: always the stored one
    role: original.Role,
  };
  const email = (form.email ?? '').trim();
  if (email && email.toLowerCase() !== (original.Email ?? '').trim().toLowerCase()) payload.email = email;
  return payload;
}

// ---------------------------------------------------------------------------------------------
// Password

export interface PasswordForm {
  password?: string;
  newpassword?: string;
  confirm?: string;
}

const c = changePasswordSchema.properties;

/** Presence is checked by `validatePasswordChange` (one message for all three, per the spec). */
export const passwordSchema: RJSFSchema = {
  $id: 'account/password-form',
  type: 'object',
  properties: {
    password: { type: 'string', title: c.password.title, maxLength: c.password.maxLength },
    newpassword: { ...c.newpassword },
    confirm: { type: 'string', title: 'Confirm new password', maxLength: c.newpassword.maxLength },
  },
} as RJSFSchema;

export const passwordUiSchema: UiSchema = {
  password: { 'ui:widget': 'password', 'ui:autocomplete': 'current-password' },
  newpassword: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password', 'ui:help': 'At least 8 characters.' },
  confirm: { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' },
};

/** Spec section 5, account password form, on submit. */
export function validatePasswordChange(f: PasswordForm): string | null {
  if (!f.password || !f.newpassword || !f.confirm) return AccountText.completeRequired;
  if (f.newpassword !== f.confirm) return AccountText.passwordsDoNotMatch;
  return null;
}

/** The live mismatch message under the confirmation. */
export function newPasswordMismatch(f: PasswordForm): string | null {
  return f.confirm && f.newpassword !== f.confirm ? AccountText.passwordsDoNotMatch : null;
}

/** Save is disabled while the new password and its confirmation differ. */
export function canSavePassword(f: PasswordForm): boolean {
  return (f.newpassword ?? '') === (f.confirm ?? '');
}
