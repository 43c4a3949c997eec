import { useEffect, useState } from 'preact/hooks';

/** What a page shows while its data loads, once it came, or when it failed. */
export type Remote<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'failed'; readonly error: Error };

/**
 * Runs `load` whenever `key` changes, aborting the previous load, so a quick second search never
 * shows the first one's late answer. `onError` sees every failure first (a 401 signs out).
 */
export function useRemote<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  onError?: (error: Error) => void,
): Remote<T> {
  const [remote, setRemote] = useState<Remote<T>>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setRemote({ state: 'loading' });
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setRemote({ state: 'ready', value });
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        const error = reason instanceof Error ? reason : new Error(String(reason));
        onError?.(error);
        setRemote({ state: 'failed', error });
      },
    );
    return () => controller.abort();
    // `load` and `onError` are new closures at each render; `key` says when the data changes.
  }, [key]);
  return remote;
}
