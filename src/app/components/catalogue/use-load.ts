import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export type LoadState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'error'; data?: undefined; error: unknown };

export type Load<T> = LoadState<T> & { reload: () => void };

/**
 * Runs an async load when `deps` change and keeps the latest result. A reply that arrives after
 * a newer load started (or after unmount) is dropped. Errors are logged to the console (spec
 * section 8: fetch errors are logged) and returned so the screen can say something friendly.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Load<T> {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => (s.status === 'loading' ? s : { status: 'loading' }));
    load().then(
      (data) => mine === seq.current && setState({ status: 'ready', data }),
      (error) => {
        if (mine !== seq.current) return;
        console.log(error);
        setState({ status: 'error', error });
      },
    );
    return () => {
      if (mine === seq.current) seq.current++;
    };
    // the caller's deps decide when to load again (and `load` with them), as with useEffect's own list
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload } as Load<T>;
}
