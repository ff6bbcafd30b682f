import { readPage, readWebsite, normaliseWebsiteInput, PageReadError } from '../../../src/server/web-fetch/page-reader';
import { WebFetchError } from '../../../src/server/web-fetch/safe-fetch';
import { startFixtureSite, html, type FixtureSite } from './fixture-site';
import { COMPANY_PAGE } from './fixture-pages';

// Jest cannot load linkedom's ESM dependency on Node 20: see native-linkedom.ts.
jest.mock('linkedom', () => jest.requireActual('./native-linkedom').loadLinkedomNatively());

describe('readPage', () => {
  it('extracts title, description, main text, logo and images', () => {
    const page = readPage(COMPANY_PAGE, 'https://brightwater.example/about/');
    expect(page.title).toBe('Brightwater Analytics | Water monitoring for cities');
    expect(page.description).toBe('Brightwater Analytics builds sensors and software that detect leaks in city water networks.');
    expect(page.siteName).toBe('Brightwater');
    expect(page.paragraphs.length).toBeGreaterThanOrEqual(4);
    expect(page.mainText).toContain('acoustic sensors');
    expect(page.mainText).toContain('Founded in 2019 in Rotterdam');
    expect(page.mainText).not.toContain('tracking');
    expect(page.logoUrl).toBe('https://brightwater.example/img/brightwater-logo.png');
    expect(page.imageUrls).toEqual(['https://brightwater.example/img/hero.jpg', 'https://brightwater.example/img/sensor.jpg']);
  });

  it('falls back to body text when Readability finds no article', () => {
    const page = readPage(
      '<html><head><title>Tiny</title></head><body><nav>Menu item</nav><div>We repair bicycles in Leeds and deliver them back the same day.</div></body></html>',
      'http://tiny.example/',
    );
    expect(page.mainText).toBe('We repair bicycles in Leeds and deliver them back the same day.');
    expect(page.siteName).toBe('tiny.example');
    expect(page.logoUrl).toBeUndefined();
  });

  it('uses icon links and og:image for the logo when no logo image exists', () => {
    const withIcons = readPage(
      '<html><head><link rel="icon" href="/f.ico"><link rel="apple-touch-icon" sizes="180x180" href="/touch.png"></head><body><p>Enough text to be read as a paragraph of the page.</p></body></html>',
      'http://x.example/',
    );
    expect(withIcons.logoUrl).toBe('http://x.example/touch.png');
    const withOg = readPage(
      '<html><head><meta property="og:image" content="https://cdn.example/og.png"></head><body><p>Enough text to be read as a paragraph of the page.</p></body></html>',
      'http://x.example/',
    );
    expect(withOg.logoUrl).toBe('https://cdn.example/og.png');
  });

  it('refuses a page without any text', () => {
    expect(() => readPage('<html><body><script>x()</script></body></html>', 'http://x.example/')).toThrow(PageReadError);
  });
});

describe('normaliseWebsiteInput', () => {
  it('adds https:// to bare hosts only', () => {
    expect(normaliseWebsiteInput(' example.com ')).toBe('https://example.com');
    expect(normaliseWebsiteInput('example.com:8080/x')).toBe('https://example.com:8080/x');
    expect(normaliseWebsiteInput('http://example.com')).toBe('http://example.com');
    expect(normaliseWebsiteInput('javascript:alert(1)')).toBe('javascript:alert(1)');
  });
});

describe('readWebsite against a loopback fixture site', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite({ '/': html(COMPANY_PAGE) });
  });
  afterAll(() => site.close());

  it('reads the site with the test-only loopback allowance', async () => {
    const page = await readWebsite(`${site.origin}/`, { fetchOptions: { allowLoopback: true } });
    expect(page.url).toBe(`${site.origin}/`);
    expect(page.title).toContain('Brightwater Analytics');
    expect(page.description).toContain('detect leaks');
    expect(page.mainText).toContain('thirty percent');
    expect(page.logoUrl).toBe(`${site.origin}/img/brightwater-logo.png`);
  });

  it('refuses the same site without the allowance', async () => {
    await expect(readWebsite(`${site.origin}/`)).rejects.toBeInstanceOf(WebFetchError);
  });
});
