import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import {
  decodeNamesResponse,
  decodePort2Response,
  encodeNamesRequest,
  encodePortPlease2Request,
  EPMD_DEFAULT_PORT,
  ErlangDistError,
  type EpmdNodeInfo,
} from '@triad/erlang-dist';

/** Options of every EPMD request. */
export interface EpmdOptions {
  /** Whole request budget: resolve + connect + reply. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** EPMD's TCP port; default 4369 (the shell may pass `ERL_EPMD_PORT` through config). */
  readonly epmdPort?: number;
}

/** Defaults of `EpmdOptions`. */
export const EPMD_DEFAULTS = Object.freeze({
  timeoutMs: 2_000, // 2 s
  epmdPort: EPMD_DEFAULT_PORT,
});

/** The host part of a node name could not be resolved (DNS / hosts). */
export interface HostUnresolvable {
  readonly kind: 'hostUnresolvable';
  readonly host: string;
  /** The resolver's code (ENOTFOUND, EAI_AGAIN ...) or `timeout`. */
  readonly code: string;
}

/** Nothing answers EPMD's port on the host (ECONNREFUSED, timeout, reset, malformed reply). */
export interface EpmdUnreachable {
  readonly kind: 'epmdUnreachable';
  readonly host: string;
  readonly address: string;
  readonly code: string;
}

/** Outcome of `lookupNodePort`. */
export type PortLookup =
  | {
      readonly kind: 'port';
      readonly host: string;
      readonly address: string;
      readonly port: number;
      readonly info: EpmdNodeInfo;
    }
  | { readonly kind: 'notRegistered'; readonly host: string; readonly address: string; readonly alive: string }
  | HostUnresolvable
  | EpmdUnreachable;

/** Outcome of `listNodes`. */
export type NamesLookup =
  | {
      readonly kind: 'names';
      readonly host: string;
      readonly address: string;
      readonly nodes: readonly { readonly name: string; readonly port: number }[];
    }
  | HostUnresolvable
  | EpmdUnreachable;

/** Outcome of `resolveHost`. */
export type HostResolution = { readonly kind: 'resolved'; readonly address: string } | HostUnresolvable;

/**
 * Resolves a node's host part to an address; IP literals are returned as they are. Never throws:
 * failures are `hostUnresolvable` with the resolver's code (or `timeout` after `timeoutMs`).
 */
export async function resolveHost(host: string, timeoutMs: number = EPMD_DEFAULTS.timeoutMs): Promise<HostResolution> {
  if (isIP(host) !== 0) return { kind: 'resolved', address: host };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HostResolution>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hostUnresolvable', host, code: 'timeout' }), timeoutMs);
  });
  const resolution = lookup(host).then(
    (r): HostResolution => ({ kind: 'resolved', address: r.address }),
    (error: unknown): HostResolution => ({ kind: 'hostUnresolvable', host, code: errorCode(error, 'ENOTFOUND') }),
  );
  try {
    return await Promise.race([resolution, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the EPMD of `host` for the distribution port of `alive` (PORT_PLEASE2). Never throws:
 * `port` when registered, `notRegistered` when EPMD answers result 1 (or any non-zero result),
 * `hostUnresolvable`, or `epmdUnreachable` (refused, timed out, or a reply we cannot decode).
 */
export async function lookupNodePort(host: string, alive: string, options: EpmdOptions = {}): Promise<PortLookup> {
  const timeoutMs = options.timeoutMs ?? EPMD_DEFAULTS.timeoutMs;
  const resolved = await resolveHost(host, timeoutMs);
  if (resolved.kind !== 'resolved') return resolved;
  const { address } = resolved;
  const reply = await epmdRequest(
    address,
    options.epmdPort ?? EPMD_DEFAULTS.epmdPort,
    encodePortPlease2Request(alive),
    timeoutMs,
  );
  if (!reply.ok) return { kind: 'epmdUnreachable', host, address, code: reply.code };
  try {
    const decoded = decodePort2Response(reply.bytes);
    if (!decoded.found) return { kind: 'notRegistered', host, address, alive };
    const { found: _found, ...info } = decoded;
    return { kind: 'port', host, address, port: decoded.port, info };
  } catch (error) {
    if (error instanceof ErlangDistError) return { kind: 'epmdUnreachable', host, address, code: error.code };
    throw error;
  }
}

/** Lists the nodes registered with the EPMD of `host` (NAMES). Never throws; see `PortLookup` for the failures. */
export async function listNodes(host: string, options: EpmdOptions = {}): Promise<NamesLookup> {
  const timeoutMs = options.timeoutMs ?? EPMD_DEFAULTS.timeoutMs;
  const resolved = await resolveHost(host, timeoutMs);
  if (resolved.kind !== 'resolved') return resolved;
  const { address } = resolved;
  const reply = await epmdRequest(address, options.epmdPort ?? EPMD_DEFAULTS.epmdPort, encodeNamesRequest(), timeoutMs);
  if (!reply.ok) return { kind: 'epmdUnreachable', host, address, code: reply.code };
  try {
    return { kind: 'names', host, address, nodes: decodeNamesResponse(reply.bytes).nodes };
  } catch (error) {
    if (error instanceof ErlangDistError) return { kind: 'epmdUnreachable', host, address, code: error.code };
    throw error;
  }
}

type RawReply = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly code: string };

/** One EPMD exchange: connect, write the request, collect everything until EPMD closes. */
function epmdRequest(address: string, port: number, request: Uint8Array, timeoutMs: number): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = new Socket();
    let settled = false;
    const finish = (reply: RawReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => finish({ ok: false, code: 'timeout' }), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish({ ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) }));
    socket.on('error', (error) => finish({ ok: false, code: errorCode(error, 'ECONNRESET') }));
    socket.on('close', () => finish({ ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) }));
    socket.connect(port, address, () => socket.write(request));
  });
}

function errorCode(error: unknown, fallback: string): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : fallback;
}
