import {
  aiTileText,
  basicHeaderState,
  byOrder,
  connectToStartText,
  headerState,
  missingConnectionNames as missingNames,
  panelState,
  providerInstalled,
  setupCallBody,
  startStopLabel,
  tileStatus,
  webhookPath,
} from '../../../plugins/automation-views/setup-rules';
import { formatDuration, formatInZone, parseZoneOffset } from '../../../plugins/automation-views/time-zone';

describe('setup rules (spec sections 2 and 4)', () => {
  it('header: toggle when complete and connected, else connect first / loading environment', () => {
    expect(headerState(true, 'complete')).toBe('toggle');
    // ready: the starter prepared it; it waits for the user's Start
    expect(headerState(true, 'ready')).toBe('toggle');
    expect(headerState(false, 'complete')).toBe('connect-first');
    for (const s of ['no started', 'started', undefined] as const) expect(headerState(true, s)).toBe('loading-environment');
    // authorised by the combination's rule (1: Drive or Sheets) but a step needs Sheets
    expect(headerState(true, 'ready', ['Google Sheets'])).toBe('connect-to-start');
    expect(headerState(true, 'complete', ['Google Sheets'], true)).toBe('toggle');
  });

  it('basic header: toggle when complete, nothing when started, setting up otherwise', () => {
    expect(basicHeaderState('complete')).toBe('toggle');
    expect(basicHeaderState('ready')).toBe('toggle');
    expect(basicHeaderState('started')).toBe('none');
    expect(basicHeaderState('no started')).toBe('setting-up');
    expect(basicHeaderState('complete', ['Xero'])).toBe('connect-to-start');
  });

  it('panels: missing connections, then setup, then stopped', () => {
    expect(panelState(false, 'complete', true)).toBe('lets-get-started');
    expect(panelState(true, 'started', false)).toBe('getting-ready');
    expect(panelState(true, 'ready', false)).toBe('stopped');
    expect(panelState(true, 'ready', false, ['Google Sheets'])).toBe('connect-to-start');
    expect(panelState(true, 'complete', false)).toBe('stopped');
    expect(panelState(true, 'complete', true)).toBe('running');
  });

  it('start/stop label', () => {
    expect(startStopLabel(true, false)).toBe('Stop Workflow');
    expect(startStopLabel(false, false)).toBe('Start Workflow');
    expect(startStopLabel(undefined, false)).toBe('Loading...');
    expect(startStopLabel(true, true)).toBe('Loading...');
  });

  it('tile status', () => {
    const ok = [{ id: 1, name: 'x', provider: 'xero', authorization_status: 'success' }];
    expect(tileStatus({ provider: 'xero', needsAuthorisation: true, connections: undefined, installed: true })).toBe('please-wait');
    expect(tileStatus({ provider: 'xero', needsAuthorisation: true, connections: ok, installed: true })).toBe('connected');
    expect(tileStatus({ provider: 'xero', needsAuthorisation: true, connections: [{ ...ok[0], authorization_status: null }], installed: undefined })).toBe(
      'not-connected',
    );
    expect(tileStatus({ provider: 'manual_email', needsAuthorisation: false, connections: undefined, installed: true })).toBe('connected');
    expect(tileStatus({ provider: 'xero', needsAuthorisation: true, connections: ok, installed: false })).toBe('not-found');
  });

  it("AI tile: '{first word of recipe name} processed by {name}'", () => {
    expect(aiTileText('Invoice Extraction from E-mail to Xero', 'Flowmatic AI')).toBe('Invoice processed by Flowmatic AI');
    expect(aiTileText('  Emotion  Analysis', 'Flowmatic AI')).toBe('Emotion processed by Flowmatic AI');
  });

  it('connectors by order; installed per provider', () => {
    expect(
      byOrder([
        { order: 3, n: 'c' },
        { order: 1, n: 'a' },
        { order: 2, n: 'b' },
      ]).map((c) => c.n),
    ).toEqual(['a', 'b', 'c']);
    const steps = [
      { index: 0, kind: 'trigger' as const, provider: 'manual_email', action: 'email_received', name: '', installed: true },
      { index: 1, kind: 'action' as const, provider: 'flowmatic_ai', action: 'x', name: '', installed: false },
    ];
    expect(providerInstalled(steps, 'flowmatic_ai')).toBe(false);
    expect(providerInstalled(steps, 'manual_email', 'trigger')).toBe(true);
    expect(providerInstalled(steps, 'manual_email', 'action')).toBeUndefined();
    expect(providerInstalled(undefined, 'x')).toBeUndefined();
  });

  it('setup call body: the starter recipe for a combination that starts one, else its own', () => {
    const base = { workatoId: 7, email: 'a@b.c', environmentId: 66075, combinationId: 1, ownRecipeId: 11, starterRecipeId: 10 };
    expect(setupCallBody({ ...base, usesStarter: true })).toEqual({ customer_id: 7, email: 'a@b.c', instance: 66075, recipe_id: 10, combination_id: 1 });
    expect(setupCallBody({ ...base, usesStarter: false }).recipe_id).toBe(11);
    expect(setupCallBody({ ...base, usesStarter: true, starterRecipeId: undefined }).recipe_id).toBe(11);
  });

  it('webhook path: an absolute address is posted through the API base', () => {
    expect(webhookPath('https://api.example.com/api/automation/webhooks/abc?x=1')).toBe('/api/automation/webhooks/abc?x=1');
    expect(webhookPath('/api/automation/webhooks/abc')).toBe('/api/automation/webhooks/abc');
  });
});

describe('the connections a recipe needs to start', () => {
  const needs = (p: string) => ['google_drive', 'google_sheets', 'xero'].includes(p);
  // the names the connectors plugin declares (the registry's Connectors in the browser)
  const declaredNames: Record<string, string> = { google_drive: 'Google Drive', google_sheets: 'Google Sheets' };
  const missingConnectionNames = (opts: Omit<Parameters<typeof missingNames>[0], 'nameOf'>) => missingNames({ ...opts, nameOf: (p) => declaredNames[p] });
  const steps = [{ provider: 'google_drive' }, { provider: 'google_drive' }, { provider: 'flowmatic_ai' }, { provider: 'google_sheets' }];
  it('names every step provider that needs an account and is not connected, once, in step order', () => {
    const conn = (provider: string, status: 'success' | null = 'success') => ({ id: 1, name: provider, provider, authorization_status: status });
    const drive = conn('google_drive');
    expect(missingConnectionNames({ steps, connections: [drive], connectors: [], needsAuthorisation: needs })).toEqual(['Google Sheets']);
    expect(missingConnectionNames({ steps, connections: [], connectors: [{ provider: 'google_drive', name: 'My Drive' }], needsAuthorisation: needs })).toEqual(
      ['My Drive', 'Google Sheets'],
    );
    expect(missingConnectionNames({ steps, connections: [drive, conn('google_sheets')], connectors: [], needsAuthorisation: needs })).toEqual([]);
    // a lost connection (status null) is missing
    expect(missingConnectionNames({ steps, connections: [conn('google_drive', null)], connectors: [], needsAuthorisation: needs })).toEqual([
      'Google Drive',
      'Google Sheets',
    ]);
    // unknown steps or connections: nothing claimed yet
    expect(missingConnectionNames({ steps: undefined, connections: [], connectors: [], needsAuthorisation: needs })).toEqual([]);
  });
  it("reads 'Connect Google Sheets to start'", () => {
    expect(connectToStartText(['Google Sheets'])).toBe('Connect Google Sheets to start');
    expect(connectToStartText(['Google Drive', 'Google Sheets'])).toBe('Connect Google Drive and Google Sheets to start');
    expect(connectToStartText(['A', 'B', 'C'])).toBe('Connect A, B and C to start');
  });
});

describe('time zone', () => {
  it("reads the offset of a stored label such as '(GMT+01:00) Europe/Paris'", () => {
    expect(parseZoneOffset('(GMT+01:00) Europe/Paris')).toEqual({ minutes: 60, label: 'GMT+01:00' });
    expect(parseZoneOffset('(GMT-03:30) Newfoundland')).toEqual({ minutes: -210, label: 'GMT-03:30' });
    expect(parseZoneOffset('(GMT) Greenwich Mean Time : London')).toEqual({ minutes: 0, label: 'GMT' });
    expect(parseZoneOffset('(GMT+05:45) Kathmandu')?.minutes).toBe(345);
    expect(parseZoneOffset('Europe/Paris')).toBeUndefined();
    expect(parseZoneOffset('')).toBeUndefined();
    expect(parseZoneOffset(null)).toBeUndefined();
  });

  it('formats in that offset, whatever the browser zone', () => {
    const zone = parseZoneOffset('(GMT+01:00) Europe/Paris');
    expect(formatInZone('2026-11-22T23:30:00Z', zone)).toBe('23 Nov 2026, 00:30:00 GMT+01:00');
    expect(formatInZone('2026-11-22T10:00:00Z', parseZoneOffset('(GMT-05:00) Eastern Time'))).toBe('22 Nov 2026, 05:00:00 GMT-05:00');
    expect(formatInZone(null, zone)).toBe('–');
    expect(formatInZone('not a date', zone)).toBe('–');
  });

  it('durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12.4 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(null)).toBe('–');
  });
});
