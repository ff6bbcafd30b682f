/**
 * @jest-environment node
 */
import { BUILTIN_TRIGGERS, defineCatalogueTrigger } from '../../../src/core';
import { DECLARED_TRIGGERS } from '../../../plugins/connectors/declarations';
import { coreExportsNaming } from './support/core-exports';

describe('a catalogue trigger declaration', () => {
  it('is checked when it is made, naming the trigger', () => {
    const base = { id: 'slack_message', name: 'New Slack message', catalogueId: 99, icon: 'slack' };
    expect(defineCatalogueTrigger(base)).toBe(base);
    expect(() => defineCatalogueTrigger({ ...base, id: 'Slack Message' })).toThrow('Catalogue trigger "Slack Message": the id must be');
    expect(() => defineCatalogueTrigger({ ...base, name: ' ' })).toThrow('Catalogue trigger "slack_message" has no name.');
    expect(() => defineCatalogueTrigger({ ...base, icon: '' })).toThrow('Catalogue trigger "slack_message" has no icon.');
    expect(() => defineCatalogueTrigger({ ...base, catalogueId: 0 })).toThrow('catalogueId must be a whole number from 1.');
  });

  it("the core names no plugin's trigger: the connectors plugin owns Google Drive's and Xero's, the core only the engine's built-in ones", () => {
    const owned = new Set(DECLARED_TRIGGERS.map((d) => d.id));
    expect([...owned]).toEqual(['google_drive_new_file', 'xero_new_bill']);
    expect(DECLARED_TRIGGERS.map((d) => d.catalogueId)).toEqual([1, 5]);
    // every value the core exports, walked: a table keyed by one of them (the old TRIGGERS) or a term naming one fails
    const found = coreExportsNaming(
      owned,
      // a term naming one by id or kind, or with the name of a plugin's trigger, whatever its key
      (o) =>
        (typeof o.id === 'string' && owned.has(o.id)) ||
        (typeof o.kind === 'string' && owned.has(o.kind)) ||
        (typeof o.name === 'string' && DECLARED_TRIGGERS.some((d) => d.name === o.name)),
    );
    expect(found).toEqual([]);
    expect(BUILTIN_TRIGGERS.map((t) => [t.id, t.catalogueId, t.name, t.icon])).toEqual([
      ['email_received', 2, 'New e-mail with attachments', 'manual_email'],
      ['file_uploaded', 3, 'File uploaded in Flowmatic', 'manual_upload'],
      ['text_submitted', 4, 'Text submitted in Flowmatic', 'text'],
    ]);
  });
});
