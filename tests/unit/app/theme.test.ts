import { readFileSync } from 'node:fs';
import { webLightTheme } from '@fluentui/react-components';
import { appTheme } from '../../../src/app/theme';
import { THEME_FILE, themeJson } from '../../../src/app/theme/generate';

describe('the precomputed app theme', () => {
  it("is Fluent's web light theme, value for value", () => {
    expect(appTheme).toEqual(webLightTheme);
  });

  it('is the file `npm run theme:generate` writes for the installed Fluent (run it after an upgrade)', () => {
    expect(readFileSync(THEME_FILE, 'utf8')).toBe(themeJson());
  });
});
