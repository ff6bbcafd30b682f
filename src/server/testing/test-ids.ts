/**
 * Ids kept for tests: a test that drops in a plugin of its own (a workflow, its combinations, a
 * plugin folder) takes them, so it never collides with a real plugin, today's or one added later.
 * No plugin under plugins/ may use them (tests/server/core/drop-in-plugin.test.ts checks).
 */
export const TEST_IDS = {
  /** workflow, combination and solution ids from `first` to `last` */
  first: 900_000,
  last: 999_999,
  /** plugin ids (and folder names) that start with this */
  pluginPrefix: 'test-',
} as const;

/** Whether a catalogue id is one of the test ids. */
export function isTestId(id: number): boolean {
  return Number.isInteger(id) && id >= TEST_IDS.first && id <= TEST_IDS.last;
}
