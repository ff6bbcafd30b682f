import { HttpError } from '../../../src/server';
import { WebFetchError, type WebFetchErrorCode } from '../../../src/server';
import { PageReadError } from '../../../src/server';
import { SummaryError } from '../engine/summariser';
import { PressReleaseError } from '../engine/press-release';
import { CompanyFactsError } from '../engine/company-facts';
import { VoiceError } from '../engine/voices';
import { ImageError } from '../engine/images';

/** Fetch failures caused by what the user typed (400); the rest are the site's doing (422). */
const INPUT_CODES = new Set<WebFetchErrorCode>(['invalid-url', 'unsupported-scheme', 'credentials-in-url', 'forbidden-address']);

/**
 * Turns the engine's and the website reader's errors into HTTP errors carrying their readable
 * sentence: a refused address or bad input is a 400, a site that cannot be read or has too little
 * text a 422. Anything else is returned unchanged (a generic 500, logged).
 */
export function toHttpError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof WebFetchError) return new HttpError(INPUT_CODES.has(error.code) ? 400 : 422, error.message, { code: error.code });
  if (error instanceof VoiceError) return new HttpError(400, error.message);
  if (error instanceof PressReleaseError) {
    return new HttpError(/too little text/i.test(error.message) ? 422 : 400, error.message);
  }
  if (error instanceof PageReadError || error instanceof SummaryError || error instanceof CompanyFactsError || error instanceof ImageError) {
    return new HttpError(422, error.message);
  }
  return error;
}

/** Runs `work`, rethrowing its error as an HTTP error where one is known. */
export async function asHttp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toHttpError(error);
  }
}
