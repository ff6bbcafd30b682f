jest.mock('oauth4webapi', () => jest.requireActual('../connections/native-oauth4webapi').loadOAuth4WebApi());
/**
 * Issue 21, low: connection-widget tokens and download links kept working after log-out or a
 * password change, and both appeared in the request log. Now they end with the session they
 * were issued in, and the request logger redacts them.
 */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { createConnectorsPlugin } from '../../../plugins/connectors/server';
import invoiceReconciliation from '../../../plugins/invoice-reconciliation/server';
import { loggerOptions, redactUrl } from '../../../src/server/http/log-redaction';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { widgetToken } from '../connections/connect-flow';
import { connectorDeclarations } from '../connections/fixtures/connector-declarations';
import { upload } from '../document-search/multipart';
import { CSV } from '../files/samples';

describe('d2: widget tokens end with their session', () => {
  let server: TestServer;
  const plugin = createConnectorsPlugin();
  const widgetCall = (token: string) => server.call('GET', '/api/connections', { headers: { authorization: `Bearer ${token}` } });
  const connectLink = (token: string) => server.call('GET', `/api/connections/connect/google_drive?token=${encodeURIComponent(token)}`);

  beforeAll(async () => {
    server = await startTestServer({ plugins: [plugin], env: { SANDBOX_PROVIDERS: 'true' } });
  });
  afterAll(() => server.close());

  it("a log-out ends the widget token of that session (the list and the Connect link), not another session's", async () => {
    const user: TestUser = await createUser(server);
    const token = await widgetToken(server, user);
    expect((await widgetCall(token)).status).toBe(200);
    expect((await connectLink(token)).status).toBe(302);
    // a second session of the same user (another browser)
    const other = await server.call('POST', '/api/platform/api-jwt-token/', { body: { username: user.email, password: user.password } });
    const otherToken = await widgetToken(server, { ...user, access: other.body.access });

    expect((await server.call('POST', '/api/platform/logout', { body: { refresh: user.refresh } })).status).toBe(200);
    const refused = await widgetCall(token);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('The connection token belongs to a session that has ended: sign in again and reopen the connections.');
    expect((await connectLink(token)).status).toBe(401);
    expect((await widgetCall(otherToken)).status).toBe(200);
  });

  it('a password change ends every widget token issued before it', async () => {
    const user = await createUser(server);
    const token = await widgetToken(server, user);
    expect((await widgetCall(token)).status).toBe(200);
    const changed = await server.call('POST', '/api/platform/userChangePassword', {
      token: user.access,
      body: { password: user.password, newpassword: 'a new and long passphrase 42' },
    });
    expect(changed.status).toBe(200);
    expect((await widgetCall(token)).status).toBe(401);
    expect((await connectLink(token)).status).toBe(401);
    // the session the change gave back mints a working token
    expect((await widgetCall(await widgetToken(server, { ...user, access: changed.body.access }))).status).toBe(200);
  });
});

describe('d2: the request log never carries a widget token, a download link or an OAuth code', () => {
  it('redacts credential parameters in the logged URL, keeps the rest', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    app.get('/*', async () => ({ ok: true }));
    await app.ready();
    for (const url of [
      '/connections/widget?token=eyJ.widget.SECRET1&provider=google_drive',
      '/api/connections/connect/xero?token=eyJ.widget.SECRET2',
      '/api/files/download?token=body.SECRET3',
      '/api/connections/callback?state=SECRET4&code=SECRET5&scope=x',
      '/api/x?TOKEN=SECRET6&%74oken=SECRET7',
    ])
      await app.inject({ method: 'GET', url });
    await app.close();
    const log = lines.join('');
    for (let i = 1; i <= 7; i++) expect(log).not.toContain(`SECRET${i}`);
    const urls = lines
      .map((l) => JSON.parse(l))
      .filter((l) => l.req)
      .map((l) => l.req.url);
    expect(urls).toEqual([
      '/connections/widget?token=[redacted]&provider=google_drive',
      '/api/connections/connect/xero?token=[redacted]',
      '/api/files/download?token=[redacted]',
      '/api/connections/callback?state=[redacted]&code=[redacted]&scope=x',
      '/api/x?TOKEN=[redacted]&%74oken=[redacted]',
    ]);
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});

describe('d2: download links end with their session', () => {
  let server: TestServer;
  beforeAll(async () => {
    // workflow 10012's uploads are declared by its plugin
    server = await startTestServer({ env: { MAX_UPLOAD_MB: '1' }, plugins: [connectorDeclarations, invoiceReconciliation] });
  });
  afterAll(() => server.close());
  const download = async (url: string) => (await server.app.inject({ method: 'GET', url })).statusCode;

  it('a log-out ends the links made in that session; a password change ends every earlier link', async () => {
    const user = await createUser(server);
    const other = await server.call('POST', '/api/platform/api-jwt-token/', { body: { username: user.email, password: user.password } });
    const mine = (await upload(server, user.access, { content: CSV, filename: 'po.csv' }, '10012')).body.url as string;
    const theirs = (await upload(server, other.body.access, { content: CSV, filename: 'po.csv' }, '10012')).body.url as string;
    expect(await download(mine)).toBe(200);
    expect(await download(theirs)).toBe(200);

    await server.call('POST', '/api/platform/logout', { body: { refresh: user.refresh } });
    const ended = await server.app.inject({ method: 'GET', url: mine });
    expect(ended.statusCode).toBe(410);
    expect(JSON.parse(ended.body).message).toBe('This download link has expired; ask for a new one.');
    expect(await download(theirs)).toBe(200); // the other session's link still works

    const changed = await server.call('POST', '/api/platform/userChangePassword', {
      token: other.body.access,
      body: { password: user.password, newpassword: 'a new and long passphrase 42' },
    });
    expect(changed.status).toBe(200);
    expect(await download(theirs)).toBe(410);
    const fresh = (await upload(server, changed.body.access, { content: CSV, filename: 'po.csv' }, '10012')).body.url as string;
    expect(await download(fresh)).toBe(200);
  });
});
