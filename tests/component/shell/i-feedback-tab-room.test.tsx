import { screen } from '@testing-library/react';
import { AppLayout } from '../../../src/app/layout/AppLayout';
import { renderInShell, testShell } from '../../support/render';

/**
 * jsdom does not lay pages out, so this reads the style rules Griffel inserted for an element:
 * the declarations that apply without a media query, and those under `max-width: 768px`.
 */
function declarations(el: Element): { wide: Record<string, string>; narrow: Record<string, string> } {
  const classes = new Set(Array.from(el.classList));
  const wide: Record<string, string> = {};
  const narrow: Record<string, string> = {};
  const take = (rule: CSSStyleRule, into: Record<string, string>) => {
    const m = /^\.([\w-]+)$/.exec(rule.selectorText);
    if (!m || !classes.has(m[1])) return;
    for (let i = 0; i < rule.style.length; i++) into[rule.style[i]] = rule.style.getPropertyValue(rule.style[i]);
  };
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of Array.from(sheet.cssRules)) {
      if (rule instanceof CSSStyleRule) take(rule, wide);
      else if (rule instanceof CSSMediaRule && rule.conditionText === '(max-width: 768px)') {
        for (const inner of Array.from(rule.cssRules)) if (inner instanceof CSSStyleRule) take(inner, narrow);
      }
    }
  }
  return { wide, narrow };
}

const px = (v: string | undefined) => (v === '0' ? 0 : Number(/^(-?\d+)px$/.exec(v ?? '')?.[1]));

/** One side of a box property, from its longhand or its shorthand (jsdom keeps a shorthand as written). */
function side(d: Record<string, string>, prop: 'padding' | 'margin', which: 'top' | 'right' | 'bottom' | 'left'): number {
  // the shorthand is ours (Fluent's own button padding comes as longhands, which ours overrides)
  if (d[prop] === undefined) return px(d[`${prop}-${which}`]);
  const v = d[prop].split(/\s+/);
  const [top, right = top, bottom = top, left = right] = v;
  return px({ top, right, bottom, left }[which]);
}

describe('the Feedback tab never covers content (issue 25)', () => {
  function setup() {
    renderInShell(
      <AppLayout>
        <p>page content</p>
      </AppLayout>,
      testShell({ loggedIn: true, routes: { 'GET /api/platform/users/1001/': { body: { Name: 'Ada' } } } }),
      '/home',
    );
    return { tab: screen.getByRole('button', { name: 'Feedback' }), main: screen.getByRole('main') };
  }

  it('on wide screens (769–1366 px) it is a narrow fixed tab inside the right gutter the page keeps free', () => {
    const { tab, main } = setup();
    const t = declarations(tab).wide;
    expect(t.position).toBe('fixed');
    expect(px(t.right)).toBe(0);
    expect(t['writing-mode']).toBe('vertical-rl');
    // the text runs vertically: the tab is about 36 px across (8 px padding either side of a 20 px icon)
    expect(side(declarations(main).wide, 'padding', 'right')).toBe(64);
  });

  it('on phones and small tablets (320–768 px) it is in the page flow, in the room kept below the content, never fixed over it', () => {
    const { tab, main } = setup();
    const t = declarations(tab).narrow;
    expect(t.position).toBe('static');
    expect(t.transform).toBe('none');
    // it is the layout's last item, after the page column
    expect(main.parentElement!.nextElementSibling).toBe(tab);
    // pulled up 56 px into the 72 px the page column keeps below its content: 16 px clear of it
    const room = side(declarations(main).narrow, 'padding', 'bottom');
    expect(room).toBe(72);
    const pulledUp = -side(t, 'margin', 'top');
    expect(pulledUp).toBe(56);
    expect(room - pulledUp).toBeGreaterThanOrEqual(16);
    // its height (6 px padding, a 20 px icon, 6 px padding) stays in that room
    expect(side(t, 'padding', 'top') + 20 + side(t, 'padding', 'bottom')).toBeLessThanOrEqual(pulledUp);
  });
});
