import { ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';
import { ErlangDistError } from './errors.js';

/** EPMD request and reply tags (reference §1). */
export const EpmdTag = Object.freeze({
  ALIVE2_REQ: 120,
  ALIVE2_X_RESP: 118,
  ALIVE2_RESP: 121,
  PORT_PLEASE2_REQ: 122,
  PORT2_RESP: 119,
  NAMES_REQ: 110,
} as const);

/** Default EPMD TCP port (the `ERL_EPMD_PORT` environment variable overrides it at the edge). */
export const EPMD_DEFAULT_PORT = 4369;

/** Node types in EPMD records: 77 'M' normal, 72 'H' hidden. */
export const NodeType = Object.freeze({ NORMAL: 77, HIDDEN: 72 } as const);

/** A node registration as EPMD reports it in PORT2_RESP. */
export interface EpmdNodeInfo {
  readonly port: number;
  readonly nodeType: number;
  readonly protocol: number;
  readonly highestVersion: number;
  readonly lowestVersion: number;
  readonly name: string;
  readonly extra: Uint8Array;
}

/** PORT2_RESP: `found` with the registration, or EPMD's non-zero result (1: not registered). */
export type Port2Response =
  ({ readonly found: true } & EpmdNodeInfo) | { readonly found: false; readonly result: number };

/** The alive part of `alive@host` (EPMD only knows that part). */
export function aliveName(nodeName: string): string {
  const at = nodeName.indexOf('@');
  return at === -1 ? nodeName : nodeName.slice(0, at);
}

function request(body: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter(64);
  w.u16(0);
  body(w);
  if (w.length - 2 > 0xffff)
    throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', { detail: 'EPMD request longer than 65535 bytes' });
  w.patchU16(0, w.length - 2);
  return w.finish();
}

function nameBytes(alive: string): Uint8Array {
  if (alive.length === 0 || alive.includes('@')) {
    throw new ErlangDistError('ED_ERR_INVALID_ARGUMENT', {
      detail: `EPMD wants the alive part of a node name, got ${JSON.stringify(alive)}`,
    });
  }
  return new TextEncoder().encode(alive);
}

/** PORT_PLEASE2_REQ for `alive` (the part before `@`), with its 2-byte length prefix. */
export function encodePortPlease2Request(alive: string): Uint8Array {
  const name = nameBytes(alive);
  return request((w) => {
    w.u8(EpmdTag.PORT_PLEASE2_REQ);
    w.bytes(name);
  });
}

/**
 * Decodes the whole PORT2_RESP EPMD sent before closing. Throws ED_ERR_TRUNCATED / ED_ERR_UNKNOWN_TAG /
 * ED_ERR_TRAILING_BYTES on malformed replies.
 */
export function decodePort2Response(bytes: Uint8Array): Port2Response {
  const r = new ByteReader(bytes);
  const tag = r.u8('PORT2_RESP tag');
  if (tag !== EpmdTag.PORT2_RESP)
    throw new ErlangDistError('ED_ERR_UNKNOWN_TAG', {
      offset: 0,
      detail: `expected PORT2_RESP 119, got ${tag}`,
      details: { tag },
    });
  const result = r.u8('result');
  if (result !== 0) return { found: false, result };
  const port = r.u16('port');
  const nodeType = r.u8('node type');
  const protocol = r.u8('protocol');
  const highestVersion = r.u16('highest version');
  const lowestVersion = r.u16('lowest version');
  const name = new TextDecoder().decode(r.take(r.u16('name length'), 'name'));
  const extra = r.take(r.u16('extra length'), 'extra').slice();
  r.end('PORT2_RESP');
  return { found: true, port, nodeType, protocol, highestVersion, lowestVersion, name, extra };
}

/** NAMES_REQ, with its 2-byte length prefix. */
export function encodeNamesRequest(): Uint8Array {
  return request((w) => w.u8(EpmdTag.NAMES_REQ));
}

export interface NamesResponse {
  readonly epmdPort: number;
  /** Nodes from the `name <Name> at port <Port>` lines, in EPMD's order. */
  readonly nodes: readonly { readonly name: string; readonly port: number }[];
  /** Lines that did not have that shape (kept for diagnostics). */
  readonly otherLines: readonly string[];
}

/** Decodes the whole NAMES reply (EPMD port u32, then text lines until EPMD closes). */
export function decodeNamesResponse(bytes: Uint8Array): NamesResponse {
  const r = new ByteReader(bytes);
  const epmdPort = r.u32('EPMD port');
  const text = new TextDecoder().decode(r.take(r.remaining));
  const nodes: { name: string; port: number }[] = [];
  const otherLines: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const m = /^name (.+) at port (\d{1,5})$/.exec(line);
    if (m?.[1] !== undefined && Number(m[2]) <= 0xffff) nodes.push({ name: m[1], port: Number(m[2]) });
    else otherLines.push(line);
  }
  return { epmdPort, nodes, otherLines };
}

/** ALIVE2_REQ (registering a listening node; a hidden client never needs it). */
export function encodeAlive2Request(options: {
  readonly port: number;
  readonly alive: string;
  readonly nodeType?: number;
  readonly highestVersion?: number;
  readonly lowestVersion?: number;
  readonly extra?: Uint8Array;
}): Uint8Array {
  const name = nameBytes(options.alive);
  const extra = options.extra ?? new Uint8Array(0);
  return request((w) => {
    w.u8(EpmdTag.ALIVE2_REQ);
    w.u16(options.port);
    w.u8(options.nodeType ?? NodeType.NORMAL);
    w.u8(0); // TCP/IPv4
    w.u16(options.highestVersion ?? 6);
    w.u16(options.lowestVersion ?? 6);
    w.u16(name.length);
    w.bytes(name);
    w.u16(extra.length);
    w.bytes(extra);
  });
}

/** ALIVE2_X_RESP (u32 creation) or the legacy ALIVE2_RESP (u16 creation). */
export function decodeAlive2Response(bytes: Uint8Array): { readonly result: number; readonly creation: number } {
  const r = new ByteReader(bytes);
  const tag = r.u8('ALIVE2 reply tag');
  if (tag !== EpmdTag.ALIVE2_X_RESP && tag !== EpmdTag.ALIVE2_RESP) {
    throw new ErlangDistError('ED_ERR_UNKNOWN_TAG', {
      offset: 0,
      detail: `expected ALIVE2 reply, got ${tag}`,
      details: { tag },
    });
  }
  const result = r.u8('result');
  const creation = tag === EpmdTag.ALIVE2_X_RESP ? r.u32('creation') : r.u16('creation');
  return { result, creation };
}
