/** How long a write waits for another import of the same store by default, ms. */
export const DEFAULT_MAX_WAIT_MS = 600_000; // 10 min

/** How a write waits when another process (or connection) is importing into the same store. */
export interface StoreWait {
  /** Called once, when this write starts waiting for another import to finish. */
  readonly onWait?: () => void;
  /** Longest wait, ms; default `DEFAULT_MAX_WAIT_MS`. Then `StoreBusyError`. */
  readonly maxWaitMs?: number;
}

/** Another import held the store for longer than the write would wait; nothing was changed. */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';

  constructor(waitedMs: number) {
    super(
      `another import into this content store is still running after ${Math.round(waitedMs / 1000)} s; ` +
        'nothing was changed, try again when it has finished',
    );
  }
}

/** Polls `tryTake` until it succeeds (calling `onWait` before the first wait) or `maxWaitMs` passes. */
export async function waitForStore(tryTake: () => boolean | Promise<boolean>, wait: StoreWait = {}): Promise<void> {
  if (await tryTake()) return;
  wait.onWait?.();
  const limit = wait.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const started = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (await tryTake()) return;
    if (Date.now() - started >= limit) throw new StoreBusyError(Date.now() - started);
  }
}

/** Between two attempts to take the store, ms. */
const POLL_MS = 100;
