/** Display rules for catalogue names (spec section 2, Combination card and Basic workflow screen). */

/** Removes the text '(basic)' (any case) from a name and tidies the spaces left behind. */
export function cleanCombinationName(name: string): string {
  return name
    .replace(/\(\s*basic\s*\)/gi, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** Combination ids whose setup screen is reached through the basic route (name contains the word basic). */
export function isBasicName(name: string): boolean {
  return /\bbasic\b/i.test(name);
}
