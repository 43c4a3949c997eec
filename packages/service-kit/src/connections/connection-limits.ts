/**
 * How long a client may take to send a request, how long an idle connection stays open, and how
 * many connections one client address may hold at once. Every service has these settings
 * (`serviceSettingsProperties` reads them from the environment; docs/operations.md lists them).
 */
export interface ConnectionLimits {
  /** Time to receive the request line and headers, ms (`TRIAD_HEADERS_TIMEOUT_MS`). */
  readonly headersTimeoutMs: number;
  /**
   * Time to receive a whole request, body included, ms; 0: no limit (`TRIAD_REQUEST_TIMEOUT_MS`).
   * Generous, so a long upload at a steady pace still gets through; `bodyStallTimeoutMs` is what
   * catches a body that stopped.
   */
  readonly requestTimeoutMs: number;
  /** Longest pause while a request body is arriving, ms (`TRIAD_BODY_STALL_TIMEOUT_MS`). */
  readonly bodyStallTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests, ms (`TRIAD_KEEP_ALIVE_TIMEOUT_MS`). */
  readonly keepAliveTimeoutMs: number;
  /**
   * Open connections one client address may hold (WebSockets and event streams included); 0: no
   * limit (`TRIAD_MAX_CONNECTIONS_PER_CLIENT`). Behind a proxy every connection comes from the
   * proxy's address: raise it or set 0 there and limit clients in the proxy.
   */
  readonly maxConnectionsPerClient: number;
}

/** The defaults, one place (the config schemas use them too). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  headersTimeoutMs: 30_000, // 30 s
  requestTimeoutMs: 1_800_000, // 30 min
  bodyStallTimeoutMs: 30_000, // 30 s
  keepAliveTimeoutMs: 72_000, // 72 s: Fastify's default, above the 60 s idle timeout of common proxies
  maxConnectionsPerClient: 256,
});

/** `given` over the defaults; a missing or undefined member keeps its default. */
export function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const pick = (key: keyof ConnectionLimits): number => given[key] ?? DEFAULT_CONNECTION_LIMITS[key];
  return Object.freeze({
    headersTimeoutMs: pick('headersTimeoutMs'),
    requestTimeoutMs: pick('requestTimeoutMs'),
    bodyStallTimeoutMs: pick('bodyStallTimeoutMs'),
    keepAliveTimeoutMs: pick('keepAliveTimeoutMs'),
    maxConnectionsPerClient: pick('maxConnectionsPerClient'),
  });
}

/**
 * How often Node's HTTP server looks for requests past `headersTimeoutMs` or `requestTimeoutMs`,
 * ms: a quarter of the shorter one, between 50 ms and 5 s (Node's own default is 30 s, which
 * would let a 30 s limit run to a minute).
 */
export function connectionsCheckingInterval(limits: ConnectionLimits): number {
  const shortest = Math.min(
    limits.headersTimeoutMs,
    limits.requestTimeoutMs > 0 ? limits.requestTimeoutMs : Number.POSITIVE_INFINITY,
  );
  return Math.min(5_000, Math.max(50, Math.floor(shortest / 4)));
}
