import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const AXE = path.resolve(__dirname, '../../../node_modules/axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A/AA rules plus best practices) on the page and returns the serious and
 * critical findings. Excluded: Fluent's focus-trap markers, the `data-tabster-dummy` spans a
 * Dialog or Menu puts around its surface to keep Tab inside it; they are aria-hidden and
 * focusable on purpose (they hand focus straight back into the trap), which axe's
 * aria-hidden-focus rule cannot know.
 */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  // evaluated through the DevTools protocol, which the page's Content-Security-Policy (no inline
  // script) does not govern; addScriptTag would insert an inline <script> and be refused
  if (!loaded) await page.evaluate(readFileSync(AXE, 'utf8'));
  // Colours are checked once transitions and finite animations have ended: a button's hover
  // background fading in after a click read as low contrast for a moment (a spinner, which never
  // ends, is not waited for)
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, {
      timeout: 5000,
      polling: 50,
    })
    .catch(() => undefined);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    return axe.run({ exclude: [['[data-tabster-dummy]']] }, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** How far the page scrolls sideways (0 when it fits). */
export function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}
