import { Suspense, lazy, type ComponentType } from 'react';

/**
 * A part of rjsf's default registry that loads when a form first renders it: the part shows
 * nothing for the moment its chunk takes, and the rest of the form is not held up.
 */
export function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, name: string): ComponentType<P> {
  const Loaded = lazy(load);
  function LazyPart(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  LazyPart.displayName = `Lazy${name}`;
  return LazyPart;
}
