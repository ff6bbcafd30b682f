import {
  buildUpdatePayload,
  canSavePassword,
  detailsSchema,
  formatCreationDate,
  newPasswordMismatch,
  toDetailsForm,
  validatePasswordChange,
} from '../../../src/app/pages/account/account-form';
import { PLAN_TIERS } from '../../../src/app/pages/account/plans';
import type { RJSFSchema } from '@rjsf/utils';
import type { UserProfile } from '../../../src/core/domain';

const profile: UserProfile = {
  Name: 'Ada Lovelace',
  Email: 'ada@example.com',
  Role: 4,
  Currency: 'GBP',
  Time_zone: '(GMT+00:00) Europe/London',
  Company: { name: 'Analytical Ltd' },
  Creation_date: '2026-03-05T12:00:00Z',
};

describe('account update payload (spec sections 3 and 5)', () => {
  it('sends name, currency, time_zone and role, without an unchanged e-mail', () => {
    expect(buildUpdatePayload(profile, toDetailsForm(profile))).toEqual({
      name: 'Ada Lovelace',
      currency: 'GBP',
      time_zone: '(GMT+00:00) Europe/London',
      role: 4,
    });
  });

  it('adds the e-mail only when it changed (case and spaces aside)', () => {
    const form = toDetailsForm(profile);
    expect(buildUpdatePayload(profile, { ...form, email: ' ADA@example.com ' })).not.toHaveProperty('email');
    expect(buildUpdatePayload(profile, { ...form, email: 'ada@new.example' }).email).toBe('ada@new.example');
  });

  it('keeps the stored role whatever the form holds (Role is read-only)', () => {
    expect(buildUpdatePayload(profile, { ...toDetailsForm(profile), role: 2 }).role).toBe(4);
  });

  it('formats the creation date and shows a non-date as is', () => {
    expect(formatCreationDate('2026-03-05T12:00:00Z')).toBe('March 5, 2026');
    expect(formatCreationDate('yesterday')).toBe('yesterday');
    expect(formatCreationDate(undefined)).toBe('');
    expect(toDetailsForm(profile)).toMatchObject({ company: 'Analytical Ltd', creation_date: 'March 5, 2026' });
  });

  it('keeps values the lists do not hold, so the user’s data shows as is', () => {
    const s = detailsSchema({ Role: 5, Time_zone: 'Mars/Olympus' }).properties as Record<string, RJSFSchema>;
    expect(s.time_zone.enum?.[0]).toBe('Mars/Olympus');
    expect(s.role.oneOf?.some((o) => (o as RJSFSchema).const === 5)).toBe(true);
    const plain = detailsSchema(profile).properties as Record<string, RJSFSchema>;
    expect(plain.time_zone.enum).toHaveLength(419);
  });
});

describe('account password rules (spec section 5)', () => {
  it('asks to complete the required fields when any is missing', () => {
    expect(validatePasswordChange({})).toBe('Please complete the required fields.');
    expect(validatePasswordChange({ newpassword: 'a', confirm: 'a' })).toBe('Please complete the required fields.');
    expect(validatePasswordChange({ password: 'x', confirm: 'a' })).toBe('Please complete the required fields.');
    expect(validatePasswordChange({ password: 'x', newpassword: 'a' })).toBe('Please complete the required fields.');
    expect(validatePasswordChange({ password: 'x', newpassword: 'a', confirm: 'a' })).toBeNull();
  });

  it('disables Save and says so while new and confirmation differ', () => {
    expect(canSavePassword({ newpassword: 'a', confirm: 'b' })).toBe(false);
    expect(canSavePassword({ newpassword: 'a' })).toBe(false);
    expect(canSavePassword({ newpassword: 'a', confirm: 'a' })).toBe(true);
    expect(newPasswordMismatch({ newpassword: 'a', confirm: 'b' })).toBe('Passwords do not match.');
    expect(newPasswordMismatch({ newpassword: 'a' })).toBeNull();
  });
});

describe('plan tiers (spec section 9)', () => {
  it('are the four display-only tiers with exactly the stated prices and limits', () => {
    expect(PLAN_TIERS.map((t) => [t.name, t.price, t.limits])).toEqual([
      ['Basic', 'US$100/month', ['1 workflow', '100 tasks/month', 'Extra $1/task']],
      ['Starter', 'US$1,000', ['2 workflows', '2000 tasks', 'Extra $0.50/task', 'Extra users $500']],
      ['Advanced', 'US$3,000', ['3 workflows', '10,000 tasks', 'Extra $0.30/task', 'Extra users $300']],
      ['Corporate', 'US$5,000', ['Up to 10 workflows', '1 million tasks', 'Extra $0.005/task', 'Extra users $100']],
    ]);
  });
});
