import { imageSize } from 'image-size';
import publicGenerators, {
  CAP_REACHED,
  CONFIRMATION_SENT,
  CONFIRM_LINK_NOT_VALID,
  RELEASE_NOT_FOUND,
  RECIPIENT_LIMITS,
} from '../../../plugins/public-generators/server';
import { TOO_MANY_FOR_RECIPIENT } from '../../../src/server/http/rate-limits';
import { createUser } from '../../support/server';
import { startTestServer, type TestServer } from '../../support/server';
import { startCompanySite, type CompanySite } from './support/company-site';
import { closeGeneratorsServer, postFrom, startGeneratorsServer } from './support/generators-server';
import { multipart } from './support/multipart';

// Jest cannot load linkedom's ESM dependencies on Node 20: see support/native-linkedom.ts.
jest.mock('linkedom', () => jest.requireActual('./support/native-linkedom').loadLinkedomNatively());

jest.setTimeout(60_000);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FILL_ALL = 'Please fill out all fields!';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Each test speaks from its own client address, so the per-address rate limits stay apart. */
let addressSeq = 0;
const nextAddress = () => `10.77.${Math.floor(++addressSeq / 250)}.${(addressSeq % 250) + 1}`;

describe('/mia: send_to_mia, its images and apiEmailByMia', () => {
  let server: TestServer, site: CompanySite;
  beforeAll(async () => ({ server, site } = await startGeneratorsServer()));
  afterAll(() => closeGeneratorsServer(server, site));

  const sendToMia = (fields: Record<string, unknown>, address = nextAddress()) => postFrom(server, address, '/api/platform/send_to_mia', fields);
  function emailByMia(fields: Record<string, string>, address = nextAddress()) {
    const form = multipart(fields);
    return postFrom(server, address, '/api/platform/apiEmailByMia', form.body, form.headers);
  }
  async function image(url: string) {
    const res = await server.app.inject({ method: 'GET', url: new URL(url).pathname });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
  }

  /** Follows the link of the confirmation mail sent to `email`; returns the confirmation mail and the page. */
  async function confirmByLink(email: string) {
    const mail = await server.mailer.waitFor(email);
    expect(mail.subject).toBe('Confirm your e-mail address for the press-release generator');
    const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
    const page = await server.app.inject({ method: 'GET', url: new URL(link).pathname, remoteAddress: nextAddress() });
    return { mail, page, link };
  }

  const release = (path: string, extra: Record<string, unknown> = {}) =>
    sendToMia({ email: 'press@brightwater.example', name: 'Brightwater Analytics', url: `${site.origin}${path}`, product_name: 'LeakFinder', ...extra });

  it('writes a title, two different versions and three PNG images from the site, and serves them', async () => {
    const res = await release('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', id: expect.stringMatching(UUID) });
    expect(res.body.title).toMatch(/Brightwater Analytics Launches LeakFinder/);
    expect(res.body.paraphrase_1).toContain('LeakFinder');
    expect(res.body.paraphrase_1).toContain('acoustic sensors');
    expect(res.body.paraphrase_2).toContain('LeakFinder');
    expect(res.body.paraphrase_2).not.toBe(res.body.paraphrase_1);
    expect(`${res.body.paraphrase_1}${res.body.paraphrase_2}`).not.toContain('tracking');
    for (const field of ['log_image', 'image_1', 'image_2']) {
      expect(res.body[field]).toMatch(new RegExp(`^http://localhost:3000/api/plugins/public-generators/images/${res.body.id}/(logo|image-1|image-2)\\.png$`));
    }

    const logo = await image(res.body.log_image);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(logo.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // the site's own 200×80 logo, re-encoded
    expect(imageSize(logo.bytes)).toMatchObject({ width: 200, height: 80, type: 'png' });
    expect(site.hits.get('/img/logo.png')).toBe(1);

    for (const url of [res.body.image_1, res.body.image_2]) {
      const banner = await image(url);
      expect(banner.status).toBe(200);
      expect(banner.headers['content-type']).toBe('image/png');
      expect(imageSize(banner.bytes)).toMatchObject({ width: 1200, height: 630, type: 'png' });
    }
    const [one, two] = await Promise.all([image(res.body.image_1), image(res.body.image_2)]);
    expect(one.bytes.equals(two.bytes)).toBe(false);

    const row = await server.db
      .selectFrom('mia_releases' as never)
      .selectAll()
      .where('id' as never, '=', res.body.id as never)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: 'press@brightwater.example',
      company: 'Brightwater Analytics',
      product: 'LeakFinder',
      logo_source: 'site',
      text_source: 'template',
    });
  });

  it('never serves a fetched SVG logo: it is re-encoded to PNG, script dropped', async () => {
    const res = await release('/svg-logo');
    expect(res.status).toBe(200);
    const logo = await image(res.body.log_image);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(logo.bytes.toString('latin1')).not.toMatch(/<svg|script/i);
    expect(imageSize(logo.bytes)).toMatchObject({ width: 120, height: 60, type: 'png' });
  });

  it('draws a logo when the site has none, or when its logo cannot be fetched', async () => {
    for (const path of ['/no-logo', '/broken-logo']) {
      const res = await release(path);
      expect(res.status).toBe(200);
      const logo = await image(res.body.log_image);
      expect(imageSize(logo.bytes)).toMatchObject({ width: 512, height: 512, type: 'png' });
    }
  });

  it('uses the site name when the company name is left empty, and accepts an empty e-mail', async () => {
    const res = await release('/no-logo', { name: '', email: '' });
    expect(res.status).toBe(200);
    expect(res.body.title).toMatch(/^Brightwater Launches LeakFinder/);
  });

  it("answers a missing or blank url with 400 'Please fill out all fields!'", async () => {
    for (const body of [{ email: '', name: '', product_name: '' }, { email: '', name: '', url: '', product_name: '' }, { url: '   ' }, { url: 42 }]) {
      const res = await sendToMia(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: FILL_ALL });
    }
  });

  it('validates the other fields with readable sentences', async () => {
    expect((await release('/', { email: 'not-an-address' })).body).toEqual({ status: 'error', message: 'Please enter a valid email address.' });
    expect((await release('/', { product_name: '' })).body).toEqual({ status: 'error', message: 'Please give the product name.' });
    expect((await release('/', { product_name: 'x'.repeat(121) })).body.message).toBe('The product name must be text of at most 120 characters.');
    const extra = await release('/', { admin: true });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toBe('"admin" is not an accepted field.');
  });

  it("refuses private and link-local addresses and odd schemes with the reader's sentence", async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:192.168.1.1]/', 'file:///etc/passwd']) {
      const res = await sendToMia({ email: '', name: 'X', url, product_name: 'Y' });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(/\w+.*\./);
      expect(res.body.message).not.toMatch(/Something went wrong/);
    }
  });

  it('answers a site with too little text with 422 and a sentence', async () => {
    const res = await release('/tiny');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/too little text|not enough text|no readable text/i);
    const missing = await release('/no-such-page');
    expect(missing.status).toBe(422);
    expect(missing.body.message).not.toMatch(/Something went wrong/);
  });

  it('answers 404 for images of unknown releases or names', async () => {
    const res = await release('/no-logo');
    const id = res.body.id as string;
    for (const path of [`${id}/other.png`, `${id}/logo.svg`, `00000000-0000-4000-8000-000000000000/logo.png`, 'not-a-uuid/logo.png']) {
      const got = await server.app.inject({ method: 'GET', url: `/api/plugins/public-generators/images/${path}` });
      expect(got.statusCode).toBe(404);
    }
  });

  it('e-mails a release (template 14) to the address it was written for, escaped in HTML', async () => {
    const email = 'launch@brightwater.example';
    const res = await release('/', { email });
    const sent = await emailByMia({
      template_id: '14',
      email,
      name: 'Brightwater Analytics',
      url: `${site.origin}/`,
      product_name: 'LeakFinder',
      id: res.body.id,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: 'success', message: CONFIRMATION_SENT(email) });
    // first a confirmation with nothing the sender chose: no company, site, title or text of the release
    const { mail: confirmation, page } = await confirmByLink(email);
    for (const chosen of ['Brightwater', 'LeakFinder', site.origin, res.body.title, res.body.paraphrase_1]) {
      expect(confirmation.text).not.toContain(chosen);
      expect(confirmation.html).not.toContain(chosen);
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('the press release is on its way');
    const mail = await waitForRelease(email);
    expect(server.mailer.sent.filter((m) => m.to === email).map((m) => m.subject)).toEqual([confirmation.subject, mail.subject]);
    expect(mail.subject).toBe(`Your press release from Mia: ${res.body.title}`);
    expect(mail.text).toContain(res.body.paraphrase_1);
    expect(mail.text).toContain(res.body.paraphrase_2);
    expect(mail.text).toContain(res.body.image_1);
    expect(mail.html).toContain(`src="${res.body.log_image}"`);
    expect(mail.html).not.toMatch(/<script/i);
  });

  /** The first press-release mail to `email` (not the confirmation). */
  async function waitForRelease(email: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const mail = server.mailer.sent.find((m) => m.to === email && m.subject.startsWith('Your press release from Mia'));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no press release to ${email}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("mails a verified account's address at once, and a confirmed one without asking again", async () => {
    const user = await createUser(server, { email: 'verified@brightwater.example' });
    const res = await release('/no-logo', { email: user.email });
    const fields = { template_id: '14', email: user.email, name: 'B', url: `${site.origin}/`, product_name: 'P', id: res.body.id };
    expect((await emailByMia(fields)).body).toEqual({ status: 'success', message: `The press release is on its way to ${user.email}.` });
    expect((await waitForRelease(user.email)).subject).toBe(`Your press release from Mia: ${res.body.title}`);
    expect(server.mailer.sent.filter((m) => m.to === user.email && m.subject.startsWith('Confirm'))).toHaveLength(0);
  });

  it('a confirmation link works once; an unknown one is refused with a sentence', async () => {
    const email = 'once@brightwater.example';
    const res = await release('/no-logo', { email });
    await emailByMia({ template_id: '14', email, name: 'B', url: `${site.origin}/`, product_name: 'P', id: res.body.id });
    const { page, link } = await confirmByLink(email);
    expect(page.statusCode).toBe(200);
    const again = await server.app.inject({ method: 'GET', url: new URL(link).pathname, remoteAddress: nextAddress() });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain(CONFIRM_LINK_NOT_VALID);
    const forged = await server.app.inject({ method: 'GET', url: '/api/plugins/public-generators/confirm/not-a-token', remoteAddress: nextAddress() });
    expect(forged.statusCode).toBe(404);
  });

  it('limits the mail form per recipient, whatever the client address', async () => {
    const email = 'target@victim.example';
    const base = { template_id: '14', email, name: 'B', url: 'https://example.com', product_name: 'P', id: '00000000-0000-4000-8000-000000000000' };
    for (let i = 0; i < RECIPIENT_LIMITS.emailByMia; i++) expect((await emailByMia(base)).status).toBe(404);
    const over = await emailByMia(base);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ status: 'error', message: TOO_MANY_FOR_RECIPIENT, retry_after: expect.any(Number) });
    // another recipient is not affected
    expect((await emailByMia({ ...base, email: 'someone-else@victim.example' })).status).toBe(404);
  });

  it('sends at most 3 press releases a day to one address', async () => {
    const email = 'capped@brightwater.example';
    const first = await release('/no-logo', { email });
    const second = await release('/no-logo', { email: email.toUpperCase() });
    const fields = { template_id: '14', email, name: 'Brightwater Analytics', url: `${site.origin}/`, product_name: 'LeakFinder' };
    expect((await emailByMia({ ...fields, id: first.body.id })).body.message).toBe(CONFIRMATION_SENT(email));
    expect((await confirmByLink(email)).page.statusCode).toBe(200); // the first press release
    for (let i = 0; i < 2; i++) expect((await emailByMia({ ...fields, id: first.body.id })).status).toBe(200);
    const fourth = await emailByMia({ ...fields, id: second.body.id });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ status: 'error', message: CAP_REACHED });
    await waitForRelease(email);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.mailer.sent.filter((m) => m.to === email && m.subject.startsWith('Your press release'))).toHaveLength(3);
  });

  it('refuses an unknown release, another address, a wrong template and file parts: no open relay', async () => {
    const email = 'owner@brightwater.example';
    const res = await release('/no-logo', { email });
    const base = { template_id: '14', email, name: 'B', url: 'https://example.com', product_name: 'P' };
    const unknown = await emailByMia({ ...base, id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(RELEASE_NOT_FOUND);
    const otherAddress = await emailByMia({ ...base, email: 'victim@example.org', id: res.body.id });
    expect(otherAddress.status).toBe(404);
    expect((await emailByMia({ ...base, id: 'not-an-id' })).body.message).toBe('The press release id is missing or not valid.');
    expect((await emailByMia({ ...base, template_id: '13', id: res.body.id })).body.message).toBe('Only the press-release e-mail can be sent from here.');
    const { id: _id, ...withoutId } = { ...base, id: '' };
    expect((await emailByMia(withoutId)).body.message).toBe('The press release id is missing or not valid.');
    const withFile = multipart({ ...base, id: res.body.id }, { name: 'file', filename: 'x.txt', content: 'hello' });
    const fileReply = await server.app.inject({
      method: 'POST',
      url: '/api/platform/apiEmailByMia',
      payload: withFile.body,
      headers: withFile.headers,
      remoteAddress: nextAddress(),
    });
    expect(fileReply.statusCode).toBeGreaterThanOrEqual(400);
    expect(fileReply.statusCode).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.mailer.sent.filter((m) => m.to === 'victim@example.org' || m.to === email)).toHaveLength(0);
  });

  it('rate-limits send_to_mia per client address (5 a minute)', async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await sendToMia({ url: '' }, address)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const limited = await sendToMia({ url: '' }, address);
    expect(limited.body).toEqual({ status: 'error', message: 'Too many attempts. Please wait a minute and try again.' });
    // another address is not affected
    expect((await sendToMia({ url: '' })).status).toBe(400);
  });
});

describe('/mia without the test-only loopback allowance', () => {
  it('refuses a loopback site like any private address', async () => {
    const site = await startCompanySite();
    const server = await startTestServer({ plugins: [publicGenerators] });
    try {
      const res = await server.call('POST', '/api/platform/send_to_mia', { body: { email: '', name: 'B', url: `${site.origin}/`, product_name: 'P' } });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(site.hits.size).toBe(0);
    } finally {
      await server.close();
      await site.close();
    }
  });
});
