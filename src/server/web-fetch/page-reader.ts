import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { decodeBody, safeFetch, type SafeFetchOptions, type SafeFetchResult } from './safe-fetch';

/**
 * Turns a fetched HTML page into what the public generators need: its title, description, main
 * text (by Mozilla Readability, falling back to the body's text blocks), logo and images.
 */

export interface PageContent {
  /** The page's title (og:title, then <title>, then the first heading). */
  title: string;
  /** The page's own description (meta description / og:description), or '' when absent. */
  description: string;
  /** The main text, paragraphs separated by blank lines. */
  mainText: string;
  /** The main text's blocks, in reading order. */
  paragraphs: string[];
  /** Absolute URL of the site's logo, when one is found. */
  logoUrl?: string;
  /** Absolute URLs of content images (og:image first), without duplicates. */
  imageUrls: string[];
  /** og:site_name, else the host name without "www.". */
  siteName: string;
}

export interface ReadWebsiteResult extends PageContent {
  /** The URL finally read, after redirects. */
  url: string;
}

/** A page that has no readable text. */
export class PageReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageReadError';
  }
}

type Doc = ReturnType<typeof parseHTML>['document'];

const BLOCK_SELECTOR = 'p, li, h1, h2, h3, h4, blockquote, td, dd';
const NOISE_SELECTOR = 'script, style, noscript, template, svg, nav, footer, header, form, iframe, aside';
const MIN_BLOCK_CHARS = 25;

/** Collapses whitespace. */
function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Resolves a URL against the page, dropping anything that is not http(s). */
function absolute(href: string | null | undefined, baseUrl: string): string | undefined {
  const value = clean(href);
  if (!value) return undefined;
  try {
    const url = new URL(value, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function meta(document: Doc, ...keys: string[]): string {
  for (const key of keys) {
    const element = document.querySelector(`meta[property="${key}"]`) ?? document.querySelector(`meta[name="${key}"]`);
    const content = clean(element?.getAttribute('content'));
    if (content) return content;
  }
  return '';
}

/** Text blocks of a fragment, short fragments (menu items, captions) dropped, duplicates removed. */
function textBlocks(root: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> }): string[] {
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const element of Array.from(root.querySelectorAll(BLOCK_SELECTOR))) {
    const text = clean(element.textContent);
    if (text.length < MIN_BLOCK_CHARS || seen.has(text)) continue;
    // A list item or cell that merely repeats a paragraph already taken (nested blocks) is skipped.
    if (blocks.some((b) => b.includes(text))) continue;
    seen.add(text);
    blocks.push(text);
  }
  return blocks;
}

/** Finds the logo: icon links, og:logo, an <img> that says "logo", else og:image. */
function findLogo(document: Doc, baseUrl: string): string | undefined {
  const fromMeta = absolute(meta(document, 'og:logo'), baseUrl);
  if (fromMeta) return fromMeta;
  const logoImage = Array.from(document.querySelectorAll('img')).find((img) =>
    ['class', 'id', 'alt', 'src'].some((attr) => /logo/i.test(img.getAttribute(attr) ?? '')),
  );
  const fromImage = absolute(logoImage?.getAttribute('src'), baseUrl);
  if (fromImage) return fromImage;
  // Prefer the largest icon: apple-touch-icon (180 px) over a sized icon over a plain favicon.
  const icons = Array.from(document.querySelectorAll('link[rel]'))
    .map((link) => ({ rel: (link.getAttribute('rel') ?? '').toLowerCase(), href: link.getAttribute('href'), sizes: link.getAttribute('sizes') ?? '' }))
    .filter((link) => /(^|\s)(icon|apple-touch-icon|apple-touch-icon-precomposed)(\s|$)/.test(link.rel))
    .map((link) => ({
      href: absolute(link.href, baseUrl),
      score: (link.rel.includes('apple-touch-icon') ? 1000 : 0) + (parseInt(link.sizes, 10) || 16),
    }))
    .filter((link): link is { href: string; score: number } => Boolean(link.href))
    .sort((a, b) => b.score - a.score);
  if (icons.length > 0) return icons[0].href;
  return absolute(meta(document, 'og:image', 'twitter:image'), baseUrl);
}

function findImages(document: Doc, baseUrl: string, logoUrl: string | undefined): string[] {
  const urls = [
    absolute(meta(document, 'og:image', 'og:image:url'), baseUrl),
    absolute(meta(document, 'twitter:image'), baseUrl),
    ...Array.from(document.querySelectorAll('img')).map((img) => absolute(img.getAttribute('src'), baseUrl)),
  ];
  const unique = new Set<string>();
  for (const url of urls) if (url && url !== logoUrl) unique.add(url);
  return [...unique].slice(0, 20);
}

/**
 * Reads an HTML page: title, description, main text (Readability, else the body's text blocks),
 * logo and images, all URLs absolute against `baseUrl` with data:/javascript: dropped.
 * Throws PageReadError when the page has no readable text at all.
 */
export function readPage(html: string, baseUrl: string): PageContent {
  const { document } = parseHTML(html);
  const title =
    meta(document, 'og:title', 'twitter:title') || clean(document.querySelector('title')?.textContent) || clean(document.querySelector('h1')?.textContent);
  const description = meta(document, 'description', 'og:description', 'twitter:description');
  const logoUrl = findLogo(document, baseUrl);
  const imageUrls = findImages(document, baseUrl, logoUrl);
  let siteName = meta(document, 'og:site_name', 'application-name');
  if (!siteName) {
    try {
      siteName = new URL(baseUrl).hostname.replace(/^www\./, '');
    } catch {
      siteName = '';
    }
  }

  // Readability changes the document it reads, so it runs last, on its own copy.
  let paragraphs: string[] = [];
  try {
    const article = new Readability(parseHTML(html).document as unknown as Document).parse();
    if (article?.content) paragraphs = textBlocks(parseHTML(`<html><body>${article.content}</body></html>`).document);
    if (paragraphs.length === 0 && article?.textContent && clean(article.textContent).length >= MIN_BLOCK_CHARS) {
      paragraphs = [clean(article.textContent)];
    }
  } catch {
    paragraphs = [];
  }
  if (paragraphs.length === 0) {
    document.querySelectorAll(NOISE_SELECTOR).forEach((element) => element.remove());
    paragraphs = textBlocks(document);
    if (paragraphs.length === 0) {
      const bodyText = clean(document.body?.textContent);
      if (bodyText) paragraphs = [bodyText];
    }
  }
  if (paragraphs.length === 0 && description) paragraphs = [description];
  if (paragraphs.length === 0) throw new PageReadError('That page has no readable text.');

  return {
    title: title || siteName,
    description,
    mainText: paragraphs.join('\n\n'),
    paragraphs,
    logoUrl,
    imageUrls,
    siteName,
  };
}

export interface ReadWebsiteDeps {
  /** The fetcher (default safeFetch); tests and callers may wrap it. */
  fetch?: (url: string, options?: SafeFetchOptions) => Promise<SafeFetchResult>;
  /** Options passed to the fetcher (limits, allowLoopback for the test fixture site). */
  fetchOptions?: SafeFetchOptions;
}

/** Adds https:// to a bare host a user typed ("example.com"), leaving full URLs alone. */
export function normaliseWebsiteInput(input: string): string {
  const value = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  // Schemes without "//" (data:, javascript:, mailto:…) are kept so safeFetch refuses them by name.
  if (/^(data|javascript|mailto|file|about|blob|vbscript):/i.test(value)) return value;
  return `https://${value}`;
}

/**
 * Reads a company's website safely (safeFetch with every SSRF guard) and extracts its content.
 * Throws WebFetchError for refused or failed fetches, PageReadError for pages without text.
 */
export async function readWebsite(url: string, deps: ReadWebsiteDeps = {}): Promise<ReadWebsiteResult> {
  const fetcher = deps.fetch ?? safeFetch;
  const result = await fetcher(normaliseWebsiteInput(url), deps.fetchOptions);
  const page = readPage(decodeBody(result), result.url);
  return { ...page, url: result.url };
}
