/**
 * The teaser's files, made by `npm run teaser:make` (tests/tools/make-teaser.ts) and committed
 * under ./media. webpack emits each one as a hashed asset (new URL(…, import.meta.url) is an
 * asset reference) and the server serves it from the built client with its content type.
 */
export const TEASER_VIDEO_URL = new URL('./media/teaser.webm', import.meta.url).href;
export const TEASER_POSTER_URL = new URL('./media/teaser-poster.webp', import.meta.url).href;
export const TEASER_CAPTIONS_URL = new URL('./media/teaser.en.vtt', import.meta.url).href;
