import { fakeOf, type Token } from './di';

/** A service to put in place of the one bound to `token` (see TestServerOptions.fakes). */
export interface Fake<T> {
  readonly token: Token<T>;
  readonly value: T;
}

/** Any fake, for lists of them (each was checked against its token when made). */
export interface AnyFake {
  readonly token: symbol;
  readonly value: unknown;
}

/**
 * A typed partial fake of a service: only the members a test needs, each checked against the
 * token's interface by the compiler; a member the test did not give fails when called, naming it.
 *
 *   fake(T.TextGenerator, { generate: async () => ({ text: 'Hello', source: 'template' }) })
 */
export function fake<T extends object>(token: Token<T>, members: Partial<T>): Fake<T> {
  return { token, value: fakeOf(token, members) } as Fake<T>;
}

/** A whole value in place of a service (a class of the test's own, a real service set up otherwise). */
export function replace<T>(token: Token<T>, value: T): Fake<T> {
  return { token, value };
}
