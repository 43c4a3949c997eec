/**
 * Calls `probe` every 50 ms until it yields a value other than undefined and returns that value;
 * rejects naming `what` after `timeoutMs`. For tests waiting on real nodes and background work.
 */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
