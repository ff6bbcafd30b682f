/** Resolves after `ms`, or rejects with an AbortError when `signal` aborts first (the page was left). */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('Stopped.', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Stopped.', 'AbortError'));
      },
      { once: true },
    );
  });
}
