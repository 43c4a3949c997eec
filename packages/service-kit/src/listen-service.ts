import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Starts listening and returns the base URL clients should use (`http://127.0.0.1:8082`,
 * `http://[::1]:8080`). When listening fails (port taken, bad address) the app is closed before
 * the error is rethrown, so nothing is left half-open.
 */
export async function listenService(app: FastifyInstance, host: string, port: number): Promise<string> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return serviceUrl(app.server.address(), host);
}

/** The base URL of a listening server address; `http://<host>` when the address is not TCP. */
export function serviceUrl(address: AddressInfo | string | null, host: string): string {
  if (address && typeof address === 'object') {
    const shown = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}`;
  }
  return `http://${host}`;
}
