/**
 * The My Account tabs other than My details, one chunk (issue 7, 'Speed'): the page opens on My
 * details, so its first load carries neither the plan cards, the billing table nor the password
 * form; choosing a tab (or pointing at the tab list) loads them.
 */
export { PlanTab } from './PlanTab';
export { BillingTab } from './BillingTab';
export { PasswordTab } from './PasswordTab';
export { TeamTab } from './TeamTab';
export { ApiKeysTab } from './ApiKeysTab';
