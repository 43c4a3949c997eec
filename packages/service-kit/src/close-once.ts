/**
 * One idempotent close for a service's parts: runs `steps` in order (listener first, database
 * last), each even when an earlier one failed, and rejects with the first failure once all ran.
 * Every call returns the same promise.
 */
export function closeOnce(...steps: readonly (() => unknown)[]): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      let failure: { error: unknown } | undefined;
      for (const step of steps) {
        try {
          await step();
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure) throw failure.error;
    })();
    return closing;
  };
}
