import type { Theme } from '@fluentui/react-components';
import webLightTheme from './web-light-theme.json';

/**
 * The app's Fluent theme: Fluent's web light theme, precomputed by src/app/theme/generate.ts
 * (`npm run theme:generate`) so the main chunk carries its values rather than the palettes and
 * code that compute them.
 */
export const appTheme: Theme = webLightTheme as Theme;
