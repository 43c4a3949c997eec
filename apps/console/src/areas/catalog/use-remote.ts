import { useEffect, useState } from 'preact/hooks';

/** What a page shows while its data loads, once it came, or when it failed. */
export type Remote<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'failed'; readonly error: Error };

const LOADING: Remote<never> = Object.freeze({ state: 'loading' });

/**
 * Runs `load` whenever `key` changes, aborting the previous load, so a quick second search never
 * shows the first one's late answer; from the render where `key` changes until its own answer,
 * the state is `loading` (never the previous key's data). `onError` sees every failure first (a
 * 401 signs out).
 */
export function useRemote<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  onError?: (error: Error) => void,
): Remote<T> {
  const [settled, setSettled] = useState<{ readonly key: string; readonly remote: Remote<T> } | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setSettled({ key, remote: { state: 'ready', value } });
      },
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        const error = reason instanceof Error ? reason : new Error(String(reason));
        onError?.(error);
        setSettled({ key, remote: { state: 'failed', error } });
      },
    );
    return () => controller.abort();
    // `load` and `onError` are new closures at each render; `key` says when the data changes.
  }, [key]);
  return settled?.key === key ? settled.remote : LOADING;
}
