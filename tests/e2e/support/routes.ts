/**
 * Every route of the spec's route table as issue 8 lists them: ids 1 for a solution, 10004 for
 * a workflow's combinations, 1, 9, 10, 11 and a basic variant (2) for setup screens,
 * 10002–10011 for workflow pages, 1 for monitoring; public pages logged out and logged in.
 */
export interface RouteCase {
  path: string;
  /** what the page shows once loaded (a heading or text), so checks run on the real content */
  ready?: string;
}

export const PUBLIC_ROUTES: RouteCase[] = [
  { path: '/welcome' },
  { path: '/teaser' },
  { path: '/login', ready: 'Sign in' },
  { path: '/register' },
  { path: '/reset-password' },
  { path: '/mia' },
  { path: '/hal' },
  { path: '/home' },
];

const WORKFLOW_IDS = [10002, 10003, 10004, 10005, 10006, 10007, 10008, 10009, 10010, 10011];

export const SIGNED_IN_ROUTES: RouteCase[] = [
  { path: '/home', ready: 'Recommended Combinations' },
  { path: '/solutions' },
  { path: '/solution/1', ready: 'Workflows' },
  { path: '/solutions/combinations/10004', ready: 'Combinations' },
  ...[1, 9, 10, 11].map((id) => ({ path: `/solutions/combinations/workflow/${id}`, ready: 'Cost estimator' })),
  { path: '/solutions/combinations/basic-workflow/2', ready: 'Cost estimator' },
  ...WORKFLOW_IDS.map((id) => ({ path: `/workflow/${id}` })),
  { path: '/monitoring/1', ready: 'Monitoring' },
  { path: '/my-account', ready: 'My Account' },
  { path: '/welcome' },
  { path: '/teaser' },
  { path: '/mia' },
  { path: '/hal' },
  { path: '/no/such/page', ready: 'Page not found' },
];

/** The widths no page may scroll sideways at. */
export const WIDTHS = [320, 390, 1366];
