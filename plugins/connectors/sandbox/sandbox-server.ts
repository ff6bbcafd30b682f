import { createHmac } from 'node:crypto';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SandboxOAuth, type SandboxClient } from './sandbox-oauth';
import { newId, SandboxState } from './sandbox-state';
import * as V from './sheets-values';
import { buildInvoice, TAX_RATES, validationReply, wireInvoice } from './xero-invoices';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';
/** The sandbox's HTML page around a title and a body. */
const sandboxPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>body{font-family:system-ui,sans-serif;margin:2rem}.done{background:#dff6dd;padding:.5rem}form{margin:.5rem 0}</style></head><body><h1>${title}</h1>${body}</body></html>`;
const esc = (s: string) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sandbox apps' client ids and secrets (secrets derived from SECRET_KEY, so they survive restarts). */
export function sandboxClients(secretKey: string): Record<'google' | 'xero', SandboxClient> {
  const secret = (name: string) => createHmac('sha256', secretKey).update(`sandbox-client:${name}`).digest('base64url');
  return {
    google: { clientId: 'sandbox-google-client.apps.local', clientSecret: secret('google') },
    xero: { clientId: 'SANDBOXXEROCLIENT', clientSecret: secret('xero') },
  };
}

/** Where the sandbox listens when SANDBOX_PORT is unset (0, any free port, under Jest so parallel test files never collide). */
export const DEFAULT_SANDBOX_PORT = 3030;

/** The sandbox's port from SANDBOX_PORT (checked by intVar), else DEFAULT_SANDBOX_PORT outside tests and 0 under Jest. */
export function sandboxPortDefault(env: Readonly<Record<string, string | undefined>>): number {
  return env.NODE_ENV === 'test' || env.JEST_WORKER_ID !== undefined ? 0 : DEFAULT_SANDBOX_PORT;
}

/** The sandbox could not open its port: a sentence for the person starting the server. */
export function sandboxListenMessage(host: string, port: number, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'EADDRINUSE'
      ? `port ${port} is already in use (another Flowmatic server, or another program)`
      : code === 'EACCES'
        ? `there is no permission to use port ${port}`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine`
          : `the port could not be opened (${(e as Error | undefined)?.message ?? String(e)})`;
  return `The sandbox providers (local Google and Xero) cannot listen on ${host}:${port}: ${why}. Set SANDBOX_PORT to a free port (0 picks any free port), or stop the program using it.`;
}

export interface SandboxOptions {
  dataDir: string;
  secretKey: string;
  host: string;
  port: number;
  /** lifetime of issued access tokens, seconds (tests shorten it) */
  accessTtlSeconds?: number;
}

/**
 * Local stand-ins for Google (OAuth, Drive files.list/get/create, Sheets create and values get /
 * update / append with RAW or USER_ENTERED input: see sheets-values.ts, userinfo) and Xero (OAuth
 * with rotating refresh tokens, /connections, Contacts, TaxRates, Invoices with Idempotency-Key,
 * line and tax arithmetic as Xero does it: see xero-invoices.ts), speaking their wire formats on 127.0.0.1 with their data
 * under DATA_DIR/sandbox. A page at / drops a file into a Drive folder and shows sheets and bills.
 */
export class SandboxProviders {
  readonly state: SandboxState;
  readonly oauth: SandboxOAuth;
  readonly clients: Record<'google' | 'xero', SandboxClient>;
  private app?: FastifyInstance;
  private base = '';
  accessTtlSeconds: number;

  constructor(private readonly opts: SandboxOptions) {
    this.state = new SandboxState(path.join(opts.dataDir, 'sandbox'));
    this.clients = sandboxClients(opts.secretKey);
    this.accessTtlSeconds = opts.accessTtlSeconds ?? 3600;
    this.oauth = new SandboxOAuth(this.state, this.clients, () => this.accessTtlSeconds);
  }

  /** The sandbox's address (http://127.0.0.1:port), once started. */
  get url(): string {
    if (!this.base) throw new Error('The sandbox providers are not started.');
    return this.base;
  }

  async start(): Promise<string> {
    const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024 });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    // the page's upload form (one file and two fields)
    await app.register(fastifyMultipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 4 } });
    this.oauth.mount(app, 'google', { authorize: '/google/o/oauth2/v2/auth', token: '/google/token', revoke: '/google/revoke' });
    this.oauth.mount(app, 'xero', {
      authorize: '/xero/identity/connect/authorize',
      token: '/xero/identity/connect/token',
      revoke: '/xero/identity/connect/revocation',
    });
    this.mountGoogle(app);
    this.mountXero(app);
    this.mountPage(app);
    let address: string;
    try {
      address = await app.listen({ port: this.opts.port, host: this.opts.host });
    } catch (e) {
      await app.close().catch(() => undefined);
      throw new Error(sandboxListenMessage(this.opts.host, this.opts.port, e));
    }
    this.app = app;
    this.base = address.replace('[::1]', '127.0.0.1');
    return this.base;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  private google(request: FastifyRequest, reply: FastifyReply): string | undefined {
    const account = this.oauth.bearer(request, 'google');
    if (!account) void reply.code(401).send({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    return account;
  }

  private mountGoogle(app: FastifyInstance): void {
    app.get('/google/oauth2/v2/userinfo', async (request, reply) => {
      const account = this.google(request, reply);
      if (!account) return reply;
      return { id: account, email: account, verified_email: true };
    });

    app.get('/google/drive/v3/files', async (request, reply) => {
      const account = this.google(request, reply);
      if (!account) return reply;
      const q = String((request.query as { q?: string }).q ?? '');
      const parent = /'([^']+)' in parents/.exec(q)?.[1];
      const after = /createdTime > '([^']+)'/.exec(q)?.[1];
      const mime = /mimeType\s*=\s*'([^']+)'/.exec(q)?.[1];
      const notMime = /mimeType\s*!=\s*'([^']+)'/.exec(q)?.[1];
      const name = /name\s*=\s*'([^']+)'/.exec(q)?.[1];
      const contains = /name\s+contains\s+'([^']+)'/.exec(q)?.[1]?.toLowerCase();
      const files = this.state
        .account(account)
        .files.filter(
          (f) =>
            (!parent || f.parents.includes(parent)) &&
            (!after || f.createdTime > after) &&
            (!mime || f.mimeType === mime) &&
            (!notMime || f.mimeType !== notMime) &&
            (!name || f.name === name) &&
            (!contains || f.name.toLowerCase().includes(contains)),
        )
        .sort((a, b) => a.createdTime.localeCompare(b.createdTime));
      return {
        kind: 'drive#fileList',
        files: files.map((f) => ({
          kind: 'drive#file',
          id: f.id,
          name: f.name,
          mimeType: f.mimeType,
          parents: f.parents,
          createdTime: f.createdTime,
          size: String(f.size),
        })),
      };
    });

    app.get('/google/drive/v3/files/:id', async (request, reply) => {
      const account = this.google(request, reply);
      if (!account) return reply;
      const f = this.state.account(account).files.find((x) => x.id === (request.params as { id: string }).id);
      if (!f) return reply.code(404).send({ error: { code: 404, message: 'File not found.', status: 'NOT_FOUND' } });
      if ((request.query as { alt?: string }).alt === 'media') return reply.type(f.mimeType).send(this.state.readBlob(f.id) ?? Buffer.alloc(0));
      return { kind: 'drive#file', id: f.id, name: f.name, mimeType: f.mimeType, parents: f.parents, createdTime: f.createdTime, size: String(f.size) };
    });

    app.post('/google/drive/v3/files', async (request, reply) => {
      const account = this.google(request, reply);
      if (!account) return reply;
      const b = (request.body ?? {}) as { name?: string; mimeType?: string; parents?: string[] };
      if (!b.name) return reply.code(400).send({ error: { code: 400, message: 'name is required.', status: 'INVALID_ARGUMENT' } });
      const file = this.addFile(account, { name: b.name, mimeType: b.mimeType ?? 'application/octet-stream', parents: b.parents ?? ['root'] }, Buffer.alloc(0));
      return { kind: 'drive#file', id: file.id, name: file.name, mimeType: file.mimeType };
    });

    app.post('/google/v4/spreadsheets', async (request, reply) => {
      const account = this.google(request, reply);
      if (!account) return reply;
      const title = ((request.body ?? {}) as { properties?: { title?: string } }).properties?.title ?? 'Untitled spreadsheet';
      const sheet = { spreadsheetId: newId('sheet_'), title, rows: [] as string[][] };
      // a spreadsheet is a Drive file too (files.list finds it by its MIME type)
      const file = { id: sheet.spreadsheetId, name: title, mimeType: SPREADSHEET_MIME, parents: ['root'], createdTime: new Date().toISOString(), size: 0 };
      this.state.change(() => {
        this.state.account(account).spreadsheets.push(sheet);
        this.state.account(account).files.push(file);
      });
      return { spreadsheetId: sheet.spreadsheetId, properties: { title }, spreadsheetUrl: `${this.base}/#sheet-${sheet.spreadsheetId}` };
    });

    app.route({
      method: ['GET', 'PUT', 'POST'],
      url: '/google/v4/spreadsheets/:id/values/*',
      handler: async (request, reply) => {
        const account = this.google(request, reply);
        if (!account) return reply;
        const sheet = this.state.account(account).spreadsheets.find((s) => s.spreadsheetId === (request.params as { id: string }).id);
        if (!sheet) return reply.code(404).send({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
        const tail = decodeURIComponent((request.params as { '*': string })['*']);
        const query = request.query as { valueInputOption?: string; valueRenderOption?: string };
        try {
          if (request.method === 'GET') {
            const range = V.parseA1(tail);
            return { range: V.a1Of(range, sheet), majorDimension: 'ROWS', values: V.readRange(sheet, range, query.valueRenderOption) };
          }
          const append = tail.endsWith(':append');
          if (request.method === 'POST' && !append) return reply.code(404).send({ error: { code: 404, message: 'Unknown method.', status: 'NOT_FOUND' } });
          const range = V.parseA1(append ? tail.slice(0, -':append'.length) : tail);
          const option = V.inputOption(query);
          const values = V.rowsOfBody(request.body);
          return this.state.change(() => (append ? V.append(sheet, range, values, option) : V.update(sheet, range, values, option)));
        } catch (e) {
          if (e instanceof V.SheetsError) return reply.code(e.code).send(e.body());
          throw e;
        }
      },
    });
  }

  private mountXero(app: FastifyInstance): void {
    const tenantOf = (account: string) => `tenant-${Buffer.from(account).toString('hex').slice(0, 24)}`;
    const auth = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
      const account = this.oauth.bearer(request, 'xero');
      if (!account) {
        void reply.code(401).send({ Type: null, Title: 'Unauthorized', Status: 401, Detail: 'AuthenticationUnsuccessful' });
        return undefined;
      }
      if (request.url.startsWith('/xero/api.xro') && request.headers['xero-tenant-id'] !== tenantOf(account)) {
        void reply.code(403).send({ Type: null, Title: 'Forbidden', Status: 403, Detail: 'AuthorizationUnsuccessful' });
        return undefined;
      }
      return account;
    };
    app.get('/xero/connections', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      return [{ id: newId('conn_'), tenantId: tenantOf(account), tenantType: 'ORGANISATION', tenantName: account }];
    });
    app.get('/xero/api.xro/2.0/Contacts', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      const where = String((request.query as { where?: string }).where ?? '');
      const name = /Name\s*==\s*"([^"]*)"/.exec(where)?.[1];
      return { Contacts: this.state.account(account).contacts.filter((c) => !name || c.Name.toLowerCase() === name.toLowerCase()) };
    });
    app.post('/xero/api.xro/2.0/Contacts', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      const given = ((request.body ?? {}) as { Contacts?: Array<{ Name?: string }> }).Contacts ?? [];
      if (!given.length || given.some((c) => !c.Name)) return reply.code(400).send({ Type: 'ValidationException', Message: 'A contact needs a Name.' });
      const made = given.map((c) => ({ ContactID: newId('contact_'), Name: c.Name! }));
      this.state.change(() => this.state.account(account).contacts.push(...made));
      return { Contacts: made };
    });
    app.get('/xero/api.xro/2.0/Invoices', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      return { Invoices: this.state.account(account).invoices.map(wireInvoice) };
    });
    app.get('/xero/api.xro/2.0/TaxRates', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      return { TaxRates: TAX_RATES };
    });
    app.post('/xero/api.xro/2.0/Invoices', async (request, reply) => {
      const account = auth(request, reply);
      if (!account) return reply;
      const acc = this.state.account(account);
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string' && acc.idempotency[key]) return JSON.parse(acc.idempotency[key]);
      const given = ((request.body ?? {}) as { Invoices?: unknown }).Invoices;
      if (!Array.isArray(given) || !given.length)
        return reply.code(400).send({ ErrorNumber: 14, Type: 'PostDataInvalidException', Message: 'The request has no Invoices.' });
      const unitdp = (request.query as { unitdp?: string }).unitdp === '4' ? 4 : 2;
      const built = given.map((inv) => buildInvoice(inv && typeof inv === 'object' ? inv : {}, acc, { unitdp }));
      if (built.some((b) => b.errors.length)) return reply.code(400).send(validationReply(built));
      const body = {
        Id: newId('req_'),
        Status: 'OK',
        ProviderName: 'Flowmatic',
        DateTimeUTC: `/Date(${Date.now()})/`,
        Invoices: built.map((b) => wireInvoice(b.invoice)),
      };
      this.state.change(() => {
        for (const b of built) {
          if (b.newContact && !acc.contacts.some((c) => c.ContactID === b.newContact!.ContactID)) acc.contacts.push(b.newContact);
          acc.invoices.push(b.invoice);
        }
        if (typeof key === 'string') acc.idempotency[key] = JSON.stringify(body);
      });
      return body;
    });
  }

  /** Adds a file to an account's Drive (the page's drop and the Drive API's create). */
  addFile(account: string, meta: { name: string; mimeType: string; parents: string[] }, bytes: Buffer) {
    const file = {
      id: newId('file_'),
      name: meta.name,
      mimeType: meta.mimeType,
      parents: meta.parents,
      createdTime: new Date().toISOString(),
      size: bytes.length,
    };
    this.state.writeBlob(file.id, bytes);
    this.state.change(() => this.state.account(account).files.push(file));
    return file;
  }

  private mountPage(app: FastifyInstance): void {
    app.post('/sandbox/drop', async (request, reply) => {
      const q = request.query as { account?: string; folder?: string; name?: string; type?: string };
      if (!q.account || !q.folder || !q.name || !Buffer.isBuffer(request.body))
        return reply.code(400).send({ message: 'account, folder, name and an application/octet-stream body are required.' });
      const f = this.addFile(q.account, { name: q.name, mimeType: q.type || 'application/octet-stream', parents: [q.folder] }, request.body);
      return { id: f.id, name: f.name };
    });
    // the page's own upload form: a file chosen in the browser goes into that account's folder
    app.post('/sandbox/upload', async (request, reply) => {
      const refuse = (code: number, message: string) =>
        reply
          .code(code)
          .type('text/html')
          .send(sandboxPage('Nothing was dropped', `<p role="alert">${esc(message)}</p><p><a href="/">Back to the sandbox page</a></p>`));
      if (!request.isMultipart()) return refuse(400, 'Send the form on the sandbox page (a file and its folder).');
      let part;
      try {
        part = await request.file();
      } catch {
        return refuse(400, 'The form could not be read. Choose the file again and press the button.');
      }
      if (!part || !part.filename) return refuse(400, 'Choose a file to put in the folder first.');
      const field = (n: string) => {
        const f = part.fields[n];
        return f && !Array.isArray(f) && f.type === 'field' ? String(f.value) : '';
      };
      const account = field('account');
      const folder = field('folder');
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch {
        return refuse(413, 'That file is larger than 20 MB, the most the sandbox Drive takes.');
      }
      const owner = this.state.read().accounts[account];
      const target = owner?.files.find((f) => f.id === folder && f.mimeType === FOLDER_MIME);
      if (!owner || !target) return refuse(400, 'That folder is no longer in the sandbox Drive. Reload the sandbox page and choose a folder it shows.');
      const file = this.addFile(account, { name: part.filename, mimeType: part.mimetype || 'application/octet-stream', parents: [folder] }, bytes);
      return reply.redirect(`/?dropped=${encodeURIComponent(file.id)}#folder-${encodeURIComponent(folder)}`, 303);
    });
    app.get('/', async (request, reply) => {
      const s = this.state.read();
      const droppedId = (request.query as { dropped?: string }).dropped;
      const dropped = droppedId
        ? Object.values(s.accounts)
            .flatMap((a) => a.files.map((f) => ({ f, folder: a.files.find((x) => f.parents.includes(x.id)) })))
            .find(({ f }) => f.id === droppedId)
        : undefined;
      const notice = dropped
        ? `<p role="status" class="done">${esc(dropped.f.name)} (${dropped.f.size} bytes) is now in the folder ${esc(dropped.folder?.name ?? '')}. A recipe watching this folder starts a job when it next looks (DRIVE_POLL_INTERVAL_MS, every minute by default).</p>`
        : '';
      const sections = Object.entries(s.accounts)
        .map(([name, a]) => {
          const folders = a.files.filter((f) => f.mimeType === FOLDER_MIME);
          const folderRows = folders
            .map((f) => {
              const inside = a.files
                .filter((x) => x.parents.includes(f.id))
                .map((x) => `<li>${esc(x.name)} (${x.size} bytes, ${esc(x.createdTime)})</li>`)
                .join('');
              return `<li id="folder-${esc(f.id)}"><b>${esc(f.name)}</b> <code>${esc(f.id)}</code><ul>${inside || '<li>empty</li>'}</ul>
<form method="post" action="/sandbox/upload" enctype="multipart/form-data"><input type="hidden" name="account" value="${esc(name)}"><input type="hidden" name="folder" value="${esc(f.id)}">
<label for="file-${esc(f.id)}">Drop a file into ${esc(f.name)}:</label> <input type="file" id="file-${esc(f.id)}" name="file" required> <button type="submit">Put it in the folder</button></form>
<details><summary>From a terminal</summary><code>curl -X POST -H 'content-type: application/octet-stream' --data-binary @invoice.pdf '${esc(this.base)}/sandbox/drop?account=${encodeURIComponent(name)}&amp;folder=${encodeURIComponent(f.id)}&amp;name=invoice.pdf&amp;type=application/pdf'</code></details></li>`;
            })
            .join('');
          const sheets = a.spreadsheets
            .map(
              (sh) =>
                `<h4 id="sheet-${esc(sh.spreadsheetId)}">${esc(sh.title)}</h4><table border="1" cellpadding="4">${sh.rows.map((r, i) => `<tr>${r.map((c, j) => (sh.kinds?.[i]?.[j] === 'f' ? `<td title="formula"><i>${esc(c)}</i></td>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('') || '<tr><td>no rows</td></tr>'}</table>`,
            )
            .join('');
          const bills = a.invoices
            .map(
              (i) =>
                `<tr><td>${esc(i.Type)}</td><td>${esc(i.Status)}</td><td>${esc(i.Contact.Name)}</td><td>${esc(i.InvoiceNumber ?? '')}</td><td>${esc(i.CurrencyCode ?? '')}</td><td>${i.SubTotal}</td><td>${i.TotalTax}</td><td>${i.Total}</td><td>${i.LineItems.map((l) => `${l.Quantity} × ${esc(l.Description)} @ ${l.UnitAmount} = ${l.LineAmount} (${esc(l.TaxType)} ${l.TaxAmount})`).join('<br>')}</td></tr>`,
            )
            .join('');
          return `<section><h2>${esc(name)}</h2><h3>Drive folders</h3><ul>${folderRows || '<li>none</li>'}</ul><h3>Sheets</h3>${sheets || '<p>none</p>'}<h3>Xero bills</h3><table border="1" cellpadding="4"><tr><th>Type</th><th>Status</th><th>Contact</th><th>Number</th><th>Currency</th><th>Subtotal</th><th>Tax</th><th>Total</th><th>Lines</th></tr>${bills}</table></section>`;
        })
        .join('');
      return reply
        .type('text/html')
        .send(
          sandboxPage(
            'Sandbox providers (Google Drive, Google Sheets, Xero)',
            `${notice}${sections || '<p>No account has connected yet. Connect Google Drive from a combination\'s setup screen (the widget labels it "Sandbox"); its folders show here.</p>'}`,
          ),
        );
    });
  }
}
