import JSDOMEnvironment from 'jest-environment-jsdom';

/** jsdom plus the Node globals jsdom lacks and the shell needs (structuredClone for rjsf 6). */
export default class Environment extends JSDOMEnvironment {
  constructor(...args: ConstructorParameters<typeof JSDOMEnvironment>) {
    super(...args);
    this.global.structuredClone = structuredClone;
    this.global.TextEncoder = TextEncoder as typeof this.global.TextEncoder;
    this.global.TextDecoder = TextDecoder as typeof this.global.TextDecoder;
    const g = this.global as unknown as Record<string, unknown>;
    // jsdom has no layout, so nothing ever resizes; Fluent's MessageBar still constructs one
    if (!g.ResizeObserver) {
      g.ResizeObserver = class ResizeObserver {
        observe(): void {}
        unobserve(): void {}
        disconnect(): void {}
      };
    }
    for (const [k, v] of Object.entries({ fetch, Response, Request, Headers, AbortController, AbortSignal })) {
      if (!g[k]) g[k] = v;
    }
  }
}
