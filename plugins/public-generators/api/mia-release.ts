import { randomUUID } from 'node:crypto';
import type { TextGenerator } from '../../../src/server';
import { readWebsite, type ReadWebsiteResult } from '../../../src/server';
import { IMAGE_TYPES, safeFetch, type SafeFetchOptions } from '../../../src/server';
import { generateBannerPng, generateLogoPng, reencodeToPng } from '../engine/images';
import { pressReleaseTasks } from '../engine/press-release';
import type { MiaRelease, ReleaseImages } from './release-store';

const LOGO_FETCH: SafeFetchOptions = { accept: IMAGE_TYPES, maxBytes: 2 * 1024 * 1024, timeoutMs: 8_000 };

export interface MiaRequest {
  email?: string;
  name?: string;
  url: string;
  product_name?: string;
}

export interface MiaReleaseDeps {
  text: TextGenerator;
  /** Options for every fetch (allowLoopback only in tests). */
  fetchOptions?: SafeFetchOptions;
  /** Told why the site's own logo was not used. */
  onLogoFallback?: (reason: string) => void;
  now?: () => Date;
}

/** A headline as one clean line: a model's reply may come quoted or with a "Headline:" label. */
export function cleanTitle(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line
    .replace(/^(?:headline|title)\s*:\s*/i, '')
    .replace(/^["'“‘]+|["'”’]+$/g, '')
    .trim()
    .slice(0, 200);
}

/** The site's own logo re-encoded to PNG, or undefined (with the reason) when it cannot be used. */
async function siteLogo(site: ReadWebsiteResult, deps: MiaReleaseDeps): Promise<Buffer | undefined> {
  if (!site.logoUrl) {
    deps.onLogoFallback?.('the site names no logo');
    return undefined;
  }
  try {
    const fetched = await safeFetch(site.logoUrl, { ...deps.fetchOptions, ...LOGO_FETCH });
    return await reencodeToPng(fetched.body, 512);
  } catch (error) {
    deps.onLogoFallback?.(`${site.logoUrl}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Writes one /mia press release: reads the company's website (SSRF-safe), has the text generator
 * write the headline and two versions from the site's text, takes the site's own logo (re-encoded
 * to PNG, never served as fetched) or draws one, and draws two banners.
 * Returns the release and its images, to be saved. Throws WebFetchError, PageReadError or PressReleaseError with a
 * readable sentence when the site cannot give a release.
 */
export async function writeMiaRelease(request: MiaRequest, deps: MiaReleaseDeps): Promise<{ release: Omit<MiaRelease, 'created_at'>; images: ReleaseImages }> {
  const site = await readWebsite(request.url, { fetchOptions: deps.fetchOptions });
  const company = (request.name ?? '').trim() || site.siteName;
  const product = (request.product_name ?? '').trim();
  const tasks = pressReleaseTasks({ companyName: company, productName: product, site, date: deps.now?.() });
  const [title, first, second] = await Promise.all([
    deps.text.generate(tasks.title),
    deps.text.generate(tasks.paraphrase1),
    deps.text.generate(tasks.paraphrase2),
  ]);
  const headline = cleanTitle(title.text) || cleanTitle(tasks.title.template());

  const ownLogo = await siteLogo(site, deps);
  const logo = ownLogo ?? generateLogoPng(company);
  const banner1 = generateBannerPng(headline, 1);
  const banner2 = generateBannerPng(`${product} by ${company}`, 2);

  const usedModel = [title, first, second].some((t) => t.source === 'llm');
  const release = {
    id: randomUUID(),
    email: (request.email ?? '').trim().toLowerCase(),
    company,
    product,
    url: site.url,
    title: headline,
    paraphrase_1: first.text.trim(),
    paraphrase_2: second.text.trim(),
    logo_source: ownLogo ? ('site' as const) : ('generated' as const),
    text_source: usedModel ? ('llm' as const) : ('template' as const),
  };
  return { release, images: { logo, 'image-1': banner1, 'image-2': banner2 } };
}
