import { RATE_LIMITS, RECIPIENT_LIMITS } from '../../../plugins/public-generators/server';
import { TOO_MANY_FOR_RECIPIENT } from '../../../src/server/http/rate-limits';
import { escapeHtml, miaReleaseMail } from '../../../plugins/public-generators/api/mia-mail';
import { cleanTitle } from '../../../plugins/public-generators/api/mia-release';
import { VOICES } from '../../../plugins/public-generators/engine/voices';
import type { TestServer } from '../../support/server';
import type { CompanySite } from './support/company-site';
import { closeGeneratorsServer, postFrom, startGeneratorsServer } from './support/generators-server';

// Jest cannot load linkedom's ESM dependencies on Node 20: see support/native-linkedom.ts.
jest.mock('linkedom', () => jest.requireActual('./support/native-linkedom').loadLinkedomNatively());

jest.setTimeout(60_000);

let addressSeq = 0;
const nextAddress = () => `10.88.0.${++addressSeq}`;

describe('/hal: pitcher/page-summarization and pitcher/generate', () => {
  let server: TestServer, site: CompanySite;
  beforeAll(async () => ({ server, site } = await startGeneratorsServer()));
  afterAll(() => closeGeneratorsServer(server, site));

  const post = (url: string, body: unknown, address = nextAddress()) => postFrom(server, address, url, body);
  const pitch = (fields: Record<string, unknown>) =>
    post('/api/pitcher/generate', {
      companyName: 'Brightwater Analytics',
      voice: 'Santa',
      companyDescription: 'Brightwater Analytics builds acoustic sensors that detect leaks in city water networks.',
      email: 'sales@brightwater.example',
      ...fields,
    });

  it('summarises the site in its own sentences, without scripts or menus', async () => {
    const res = await post('/api/pitcher/page-summarization/', { url: `${site.origin}/` });
    expect(res.status).toBe(200);
    const summary: string = res.body.pageSummarization;
    expect(summary.startsWith('Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks.')).toBe(true);
    expect(summary).toMatch(/helps utilities find those leaks|thirty percent|ranks every alert|Rotterdam/);
    // each chosen block ends as a sentence (a heading is not run into the next sentence)
    expect(summary).not.toMatch(/[a-z] [A-Z][a-z]+ helps/);
    expect(summary).not.toMatch(/tracking|Copyright|Home About/);
    expect(summary.length).toBeLessThanOrEqual(2001);
  });

  it('takes a bare host name as the site (https:// added) and refuses private addresses', async () => {
    const bare = await post('/api/pitcher/page-summarization/', { url: '10.1.2.3' });
    expect(bare.status).toBe(400);
    expect(bare.body.message).not.toMatch(/Something went wrong/);
    for (const url of ['http://192.168.0.1/', 'http://169.254.169.254/', 'javascript:alert(1)']) {
      const res = await post('/api/pitcher/page-summarization/', { url });
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
    }
    expect((await post('/api/pitcher/page-summarization/', {})).body).toEqual({ status: 'error', message: 'Please enter your website.' });
    expect((await post('/api/pitcher/page-summarization/', { url: ' ' })).body).toEqual({ status: 'error', message: 'Please enter your website.' });
  });

  it('answers a page with too little text with 422', async () => {
    const res = await post('/api/pitcher/page-summarization/', { url: `${site.origin}/tiny` });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/enough text|readable text/);
  });

  it('writes a pitch in each of the five voices, naming the company', async () => {
    const pitches = new Set<string>();
    for (const voice of VOICES) {
      const res = await pitch({ voice });
      expect(res.status).toBe(200);
      expect(res.body.pitch).toContain('Brightwater Analytics');
      pitches.add(res.body.pitch);
    }
    expect(pitches.size).toBe(5);
    expect((await pitch({ voice: 'Santa' })).body.pitch).toMatch(/^Ho ho ho!/);
    // any case and spacing of a voice name is the same voice
    expect((await pitch({ voice: '  steve   IRWIN ' })).body.pitch).toBe((await pitch({ voice: 'Steve Irwin' })).body.pitch);
  });

  it('requires every field, with readable sentences', async () => {
    expect((await pitch({ voice: 'Darth Vader' })).body).toEqual({
      status: 'error',
      message: '"Darth Vader" is not a pitch voice. Please choose one of: Santa, Abraham Lincoln, Yoda, Steve Irwin, eminem rap.',
    });
    expect((await pitch({ email: 'nope' })).body.message).toBe('Please enter a valid email address.');
    expect((await pitch({ companyName: '' })).body.message).toBe('Please enter your company name.');
    expect((await pitch({ companyDescription: '  ' })).body.message).toBe('Please describe the company.');
    const missing = await post('/api/pitcher/generate', { companyName: 'A', voice: 'Yoda', email: 'a@b.co' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please describe the company.');
  });

  it('rate-limits the pitcher per client address', async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.pageSummarization; i++) statuses.push((await post('/api/pitcher/page-summarization/', {}, address)).status);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('rate-limits pitches per e-mail address, whatever the client address', async () => {
    const email = 'aimed-at@victim.example';
    const blank = {
      companyName: 'A',
      voice: 'Yoda',
      companyDescription: 'Brightwater Analytics builds acoustic sensors that detect leaks in city water networks.',
    };
    // each from another client address: only the recipient is the same
    for (let i = 0; i < RECIPIENT_LIMITS.generate; i++) expect((await post('/api/pitcher/generate', { ...blank, email })).status).toBe(200);
    const over = await post('/api/pitcher/generate', { ...blank, email: email.toUpperCase() });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ status: 'error', message: TOO_MANY_FOR_RECIPIENT, retry_after: expect.any(Number) });
    expect((await post('/api/pitcher/generate', { ...blank, email: 'another@victim.example' })).status).toBe(200);
  });
});

describe('the press-release e-mail (template 14)', () => {
  const release = {
    id: '6f1c1f55-3c52-4f59-8f53-3a3f7d3f0c11',
    email: 'a@example.com',
    company: 'Evil <img src=x onerror=alert(1)> & Co',
    product: '"Quoted" <b>Product</b>',
    url: 'https://evil.example/?a=1&b=<2>',
    title: 'Evil <script>alert(1)</script> Launches',
    paraphrase_1: 'Line one <iframe src="https://x"></iframe>\n\nSecond paragraph & more',
    paraphrase_2: "It's <svg onload=alert(1)>",
    logo_source: 'generated' as const,
    text_source: 'template' as const,
    created_at: new Date(),
  };
  const links = { log_image: 'https://app.example/i/logo.png?a="b"', image_1: 'https://app.example/i/1.png', image_2: 'https://app.example/i/2.png' };

  it('escapes every value in the HTML and keeps the text version as written', () => {
    const mail = miaReleaseMail(release, links);
    expect(mail.to).toBe('a@example.com');
    expect(mail.html).not.toMatch(/<script|<iframe|<svg|<img src=x|<b>Product/);
    expect(mail.html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt; Launches');
    expect(mail.html).toContain('src="https://app.example/i/logo.png?a=&quot;b&quot;"');
    expect(mail.html).toContain('<p style="margin:0 0 12px">Second paragraph &amp; more</p>');
    expect(mail.text).toContain(release.paraphrase_1);
    expect(mail.subject).toBe('Your press release from Mia: Evil <script>alert(1)</script> Launches');
  });

  it('keeps the subject on one line', () => {
    expect(miaReleaseMail({ ...release, title: 'A\r\nBcc: x@y.z' }, links).subject).toBe('Your press release from Mia: A Bcc: x@y.z');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('cleans a model headline to one unquoted line', () => {
    expect(cleanTitle('Headline: "Acme Launches Rocket"\nMore text')).toBe('Acme Launches Rocket');
    expect(cleanTitle('\n\n  “Acme Launches Rocket”  ')).toBe('Acme Launches Rocket');
  });
});
