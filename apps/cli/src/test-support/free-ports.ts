import { createServer } from 'node:net';

/** True when a server can listen on `port` of 127.0.0.1 right now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive ports that are free on 127.0.0.1, tried from random bases in
 * 20000-59999 (another process may still take one before the caller listens; tests accept that).
 *
 * @throws Error when 50 bases in a row had a taken port.
 */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    let free = true;
    for (let i = 0; i < count && free; i++) free = await portIsFree(base + i);
    if (free) return base;
  }
  throw new Error(`no run of ${count} free ports found`);
}
