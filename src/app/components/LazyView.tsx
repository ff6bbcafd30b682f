import { Suspense, lazy, type ComponentType } from 'react';
import { Spinner } from '@fluentui/react-components';
import { LoadError } from './catalogue/Notice';
import { ChunkBoundary } from './ChunkBoundary';
import type { ViewLoader } from '../../core/plugin';
import type { View } from '../plugin';

const cache = new WeakMap<ViewLoader<View>, ComponentType<any>>();

function lazyOf(loader: ViewLoader<View>): ComponentType<any> {
  let c = cache.get(loader);
  if (!c) {
    c = lazy(loader.load);
    cache.set(loader, c);
  }
  return c;
}

/** Renders a plugin's lazily loaded view, with a spinner while it loads and a message if it fails. */
export function LazyView({ loader, props }: { loader: ViewLoader<View>; props?: Record<string, unknown> }) {
  const C = lazyOf(loader);
  return (
    <ChunkBoundary fallback={<LoadError>This part of the page could not be loaded. Reload the page to try again.</LoadError>}>
      <Suspense fallback={<Spinner label="Loading..." />}>
        <C {...props} />
      </Suspense>
    </ChunkBoundary>
  );
}
