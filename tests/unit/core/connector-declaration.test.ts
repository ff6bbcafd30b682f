/**
 * @jest-environment node
 */
import { AI_CONNECTOR, clientConnector, connectorNeedsAccount, defineConnector, type ConnectorDeclaration } from '../../../src/core';
import { DECLARED_CONNECTORS } from '../../../plugins/connectors/declarations';
import { coreExportsNaming } from './support/core-exports';

const base: ConnectorDeclaration = {
  id: 'fixture_chat',
  name: 'Fixture Chat',
  icon: 'data:image/svg+xml,x',
  catalogueId: 9901,
  auth: { kind: 'oauth2', scopes: ['chat:write'] },
};

describe('a connector declaration', () => {
  it('is checked when declared, naming the connector and what is wrong', () => {
    expect(defineConnector(base)).toBe(base);
    expect(() => defineConnector({ ...base, id: 'Fixture-Chat' })).toThrow(
      'Connector "Fixture-Chat": the id must be 2-40 lower-case letters, digits or "_", starting with a letter.',
    );
    expect(() => defineConnector({ ...base, name: ' ' })).toThrow('Connector "fixture_chat" has no name.');
    expect(() => defineConnector({ ...base, icon: '' })).toThrow('Connector "fixture_chat" has no icon.');
    expect(() => defineConnector({ ...base, catalogueId: 0 })).toThrow('Connector "fixture_chat": catalogueId must be a whole number from 1.');
    expect(() => defineConnector({ ...base, auth: { kind: 'oauth2', scopes: 'chat:write' as unknown as string[] } })).toThrow(
      'Connector "fixture_chat": OAuth 2 scopes must be a list of strings.',
    );
    expect(() => defineConnector({ ...base, auth: { kind: 'api-key', schema: { type: 'object', properties: {} } } })).toThrow(
      'Connector "fixture_chat": the API-key form must be an object schema with properties and at least one required field.',
    );
    expect(() => defineConnector({ ...base, auth: { kind: 'basic' } as unknown as ConnectorDeclaration['auth'] })).toThrow(
      "Connector \"fixture_chat\": auth.kind must be 'oauth2', 'api-key' or 'none'.",
    );
  });

  it("becomes the browser's connector contribution", () => {
    expect(clientConnector(base)).toEqual({ provider: 'fixture_chat', name: 'Fixture Chat', icon: 'data:image/svg+xml,x', needsAuthorisation: true });
    expect(connectorNeedsAccount({ auth: { kind: 'none' } })).toBe(false);
  });

  it('the connectors plugin declares the catalogue terms it always had', () => {
    expect(DECLARED_CONNECTORS.map((d) => [d.id, d.catalogueId, d.name, d.auth.kind])).toEqual([
      ['google_drive', 1, 'Google Drive', 'oauth2'],
      ['google_sheets', 2, 'Google Sheets', 'oauth2'],
      ['xero', 3, 'Xero', 'oauth2'],
      ['manual_upload', 4, 'Manual upload', 'none'],
      ['manual_email', 5, 'Email', 'none'],
      ['flowmatic_ai', 6, 'Flowmatic AI', 'none'],
    ]);
    expect(DECLARED_CONNECTORS.map(clientConnector).map((c) => [c.provider, c.needsAuthorisation])).toEqual([
      ['google_drive', true],
      ['google_sheets', true],
      ['xero', true],
      ['manual_upload', false],
      ['manual_email', false],
      ['flowmatic_ai', false],
    ]);
  });

  it("the core names no plugin's connector: the connectors plugin owns their ids, names and catalogue ids", () => {
    // only the AI steps' connector is the core's (AI_CONNECTOR); the plugin gives it its icon
    const owned = new Set(DECLARED_CONNECTORS.map((d) => d.id).filter((id) => id !== AI_CONNECTOR.id));
    expect([...owned]).toEqual(['google_drive', 'google_sheets', 'xero', 'manual_upload', 'manual_email']);
    // every value the core exports, walked: a table keyed by one of them (the old CONNECTORS) or a term naming one fails
    const found = coreExportsNaming(
      owned,
      (o) => (typeof o.provider === 'string' && owned.has(o.provider)) || (typeof o.id === 'string' && owned.has(o.id) && ('name' in o || 'catalogueId' in o)),
    );
    expect(found).toEqual([]);
    expect(AI_CONNECTOR).toEqual({ id: 'flowmatic_ai', name: 'Flowmatic AI', catalogueId: 6, auth: { kind: 'none' } });
  });
});
