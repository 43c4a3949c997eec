/**
 * Helpers for starting a real server program on loopback: a free port, and waiting until it
 * answers. Free of vitest, so benchmarks can use them too.
 */
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (the kernel picks it; the server started next binds it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `check` resolves true, polling every 50 ms, or rejects after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
