/**
 * Writes src/app/theme/web-light-theme.json: Fluent's web light theme (`webLightTheme` of
 * @fluentui/tokens) as plain JSON. The theme is a fixed object, but importing it from Fluent
 * brings the code and palettes that compute it at start-up (about 2 KB gzip of the main chunk,
 * issue 7 'Speed'); the browser ships the computed values instead.
 *
 * Run after upgrading Fluent: `npm run theme:generate` (tests/unit/app/theme.test.ts fails while
 * the file differs from the installed Fluent's theme).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { webLightTheme } from '@fluentui/react-components';

export const THEME_FILE = path.join(__dirname, 'web-light-theme.json');

/** The file's text for the installed Fluent. */
export function themeJson(): string {
  return `${JSON.stringify(webLightTheme, null, 1)}\n`;
}

if (require.main === module) {
  writeFileSync(THEME_FILE, themeJson());
  console.log(`wrote ${path.relative(process.cwd(), THEME_FILE)}`);
}
