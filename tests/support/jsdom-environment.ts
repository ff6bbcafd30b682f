import JSDOMEnvironment from 'jest-environment-jsdom';

/** jsdom plus the Node globals jsdom lacks and the shell needs (structuredClone for rjsf 6). */
export default class Environment extends JSDOMEnvironment {
  constructor(...args: ConstructorParameters<typeof JSDOMEnvironment>) {
    super(...args);
    this.global.structuredClone = structuredClone;
    this.global.TextEncoder = TextEncoder as typeof this.global.TextEncoder;
    this.global.TextDecoder = TextDecoder as typeof this.global.TextDecoder;
    if (!this.global.fetch) this.global.fetch = fetch;
  }
}
