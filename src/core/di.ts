import { Container, type BindToFluentSyntax, type GetOptions, type ResolutionContext } from 'inversify';

/**
 * Typed DI tokens (Theia style, with the type carried by the token): a token is a Symbol that
 * also carries, at compile time only, the type of the service bound to it.
 *
 *   export interface ApiClient { ... }
 *   export const ApiClient = token<ApiClient>('ApiClient');
 *
 * `ServiceContainer.get`, `bind`, `rebind` and the `useService` hook infer that type, so a fake
 * that does not fit the interface, or a read under the wrong type, does not compile.
 */
declare const serviceType: unique symbol;
export type Token<T> = symbol & { readonly [serviceType]: (value: T) => T };

/** The service type a token stands for. */
export type ServiceOf<K> = K extends Token<infer T> ? T : never;

export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}

/** Resolves typed tokens inside a factory. */
export type Resolve = <T>(token: Token<T>) => T;

/**
 * Inversify's container with typed reads and bindings. Plain Symbols, strings and classes are
 * refused by the compiler: every service has a token.
 */
export class ServiceContainer extends Container {
  override get<T>(serviceIdentifier: Token<T>, options?: GetOptions): T {
    return super.get<T>(serviceIdentifier, options);
  }

  override getAll<T>(serviceIdentifier: Token<T>): T[] {
    return super.getAll<T>(serviceIdentifier);
  }

  override bind<T>(serviceIdentifier: Token<T>): BindToFluentSyntax<T> {
    return super.bind<T>(serviceIdentifier);
  }

  override rebind<T>(serviceIdentifier: Token<T>): BindToFluentSyntax<T> {
    return super.rebind<T>(serviceIdentifier);
  }

  /** Binds a lazily built singleton: `provide(ApiClient, (get) => new HttpApiClient(get(Http)))`. */
  provide<T>(serviceIdentifier: Token<T>, factory: (get: Resolve) => T): void {
    this.bind(serviceIdentifier)
      .toDynamicValue((ctx: ResolutionContext) => factory(<S>(t: Token<S>) => ctx.get<S>(t)))
      .inSingletonScope();
  }

  /** Binds a value. */
  constant<T>(serviceIdentifier: Token<T>, value: T): void {
    this.bind(serviceIdentifier).toConstantValue(value);
  }

  /** Replaces whatever is bound to a token by a value (tests: a fake). */
  replace<T>(serviceIdentifier: Token<T>, value: T): void {
    if (this.isBound(serviceIdentifier)) this.rebind(serviceIdentifier).toConstantValue(value);
    else this.bind(serviceIdentifier).toConstantValue(value);
  }
}

/**
 * A typed partial fake for tests: only the members a test needs, checked against the token's
 * interface; calling a member that was not given fails with a message naming it.
 */
export function fakeOf<T extends object>(t: Token<T>, members: Partial<T>): T {
  return new Proxy(members as T, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return Reflect.get(target, prop, receiver);
      throw new Error(`The fake for ${t.description} has no "${String(prop)}"`);
    },
  });
}
