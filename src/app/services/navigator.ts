/** Full-page navigation (used where the spec asks for a reload), behind a token so tests can fake it. */
export interface PageNavigator {
  /** Go to a path with a full page load. */
  assign(path: string): void;
  reload(): void;
}

export const windowNavigator: PageNavigator = {
  assign: (path) => window.location.assign(path),
  reload: () => window.location.reload(),
};
