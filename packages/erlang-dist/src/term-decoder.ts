import { inflateSync } from 'node:zlib';
import { errorMessage } from '@triad/common';
import { ByteReader } from './byte-reader.js';
import { ErlangDistError } from './errors.js';
import { Tag } from './etf-tags.js';
import type { FunTerm, PidTerm, Term } from './term.js';

/** Limits of `decodeTerm`; defaults in `DEFAULT_DECODE_OPTIONS`. */
export interface DecodeOptions {
  /** Deepest nesting of tuples, lists, maps and funs accepted (ED_ERR_DEPTH_EXCEEDED beyond). */
  readonly maxDepth: number;
  /** Largest uncompressed size a compressed term (tag 80) may declare (ED_ERR_COMPRESSED beyond). */
  readonly maxInflatedBytes: number;
}

export const DEFAULT_DECODE_OPTIONS: DecodeOptions = Object.freeze({
  maxDepth: 1_000,
  maxInflatedBytes: 64 * 1024 * 1024, // 64 MiB
});

/**
 * Decodes one complete external term (`131` + term) that fills `bytes` exactly.
 * Throws only `ErlangDistError`: ED_ERR_BAD_VERSION, ED_ERR_TRUNCATED, ED_ERR_LENGTH_EXCEEDS_INPUT,
 * ED_ERR_UNKNOWN_TAG, ED_ERR_DEPTH_EXCEEDED, ED_ERR_MALFORMED, ED_ERR_BAD_ATOM, ED_ERR_COMPRESSED,
 * ED_ERR_ATOM_CACHE_REF, ED_ERR_TRAILING_BYTES; offsets count from the start of `bytes`.
 */
export function decodeTerm(bytes: Uint8Array, options: Partial<DecodeOptions> = {}): Term {
  const reader = new ByteReader(bytes);
  const term = readVersionedTerm(reader, options);
  reader.end('the term');
  return term;
}

/**
 * Reads one versioned term (`131` + term, possibly compressed) from `reader`, leaving the
 * cursor after it. Used for the two terms of a pass-through message.
 */
export function readVersionedTerm(reader: ByteReader, options: Partial<DecodeOptions> = {}): Term {
  const opts = { ...DEFAULT_DECODE_OPTIONS, ...options };
  const at = reader.offset;
  const version = reader.u8('version byte');
  if (version !== Tag.VERSION) {
    throw new ErlangDistError('ED_ERR_BAD_VERSION', { offset: reader.base + at, details: { found: version } });
  }
  if (reader.remaining > 0 && reader.bytes[reader.offset] === Tag.COMPRESSED) return readCompressed(reader, opts);
  return new TermReader(reader, opts).term(0);
}

/**
 * Reads one term without a version byte from `reader` (the inside of a message whose head was
 * matched byte for byte), leaving the cursor after it; `depth` is the nesting the term sits at
 * (checked against `maxDepth` as if the enclosing terms had been decoded). Throws like `decodeTerm`.
 */
export function readBareTerm(reader: ByteReader, options: DecodeOptions, depth = 0): Term {
  return new TermReader(reader, options).term(depth);
}

function readCompressed(reader: ByteReader, opts: DecodeOptions): Term {
  const at = reader.position;
  reader.u8();
  const size = reader.u32('uncompressed size');
  if (size > opts.maxInflatedBytes) {
    throw new ErlangDistError('ED_ERR_COMPRESSED', {
      offset: at,
      detail: `declares ${size} bytes, limit ${opts.maxInflatedBytes}`,
      details: { declared: size, limit: opts.maxInflatedBytes },
    });
  }
  const data = reader.take(reader.remaining);
  let inflated: Uint8Array;
  try {
    inflated = inflateSync(data, { maxOutputLength: Math.max(size, 1) });
  } catch (cause) {
    throw new ErlangDistError('ED_ERR_COMPRESSED', { offset: at, detail: errorMessage(cause), cause });
  }
  if (inflated.length !== size) {
    throw new ErlangDistError('ED_ERR_COMPRESSED', {
      offset: at,
      detail: `inflated to ${inflated.length} bytes, declared ${size}`,
      details: { declared: size, inflated: inflated.length },
    });
  }
  // Offsets inside the inflated data are reported relative to it, flagged in details.
  const inner = new ByteReader(inflated);
  try {
    const term = new TermReader(inner, opts).term(0);
    inner.end('the compressed term');
    return term;
  } catch (error) {
    if (error instanceof ErlangDistError) {
      throw new ErlangDistError(error.code, {
        offset: at,
        detail: `inside the compressed term, at inflated byte ${error.offset ?? '?'}`,
        details: { ...error.details, inflatedOffset: error.offset },
        cause: error,
      });
    }
    throw error;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Recursive-descent reader: one method per tag family, dispatched by `term`. */
class TermReader {
  readonly #r: ByteReader;
  readonly #maxDepth: number;

  constructor(reader: ByteReader, opts: DecodeOptions) {
    this.#r = reader;
    this.#maxDepth = opts.maxDepth;
  }

  term(depth: number): Term {
    const r = this.#r;
    const at = r.offset;
    const tag = r.u8('tag');
    switch (tag) {
      case Tag.SMALL_INTEGER:
        return { type: 'integer', value: r.u8('small integer') };
      case Tag.INTEGER:
        return { type: 'integer', value: r.i32('integer') };
      case Tag.SMALL_BIG:
        return this.#big(r.u8('big length'), at);
      case Tag.LARGE_BIG:
        return this.#big(r.u32('big length'), at);
      case Tag.NEW_FLOAT:
        return { type: 'float', value: r.f64('float') };
      case Tag.FLOAT:
        return this.#stringFloat(at);
      case Tag.ATOM_UTF8:
      case Tag.SMALL_ATOM_UTF8:
      case Tag.ATOM:
      case Tag.SMALL_ATOM:
        return { type: 'atom', name: this.#atomBody(tag, at) };
      case Tag.ATOM_CACHE_REF:
        throw new ErlangDistError('ED_ERR_ATOM_CACHE_REF', { offset: r.base + at });
      case Tag.SMALL_TUPLE:
        return this.#tuple(r.u8('tuple arity'), at, depth);
      case Tag.LARGE_TUPLE:
        return this.#tuple(r.u32('tuple arity'), at, depth);
      case Tag.NIL:
        return { type: 'nil' };
      case Tag.STRING:
        return this.#string();
      case Tag.LIST:
        return this.#list(at, depth);
      case Tag.MAP:
        return this.#map(at, depth);
      case Tag.BINARY: {
        const n = r.u32('binary length');
        r.checkDeclared(n, 1, 'binary length', at);
        return { type: 'binary', bytes: r.take(n).slice() };
      }
      case Tag.BIT_BINARY:
        return this.#bitBinary(at);
      case Tag.NEW_PID:
      case Tag.PID:
        return this.#pidBody(tag);
      case Tag.NEW_PORT:
      case Tag.V4_PORT:
      case Tag.PORT: {
        const node = this.#nodeAtom();
        const id = tag === Tag.V4_PORT ? narrow(r.u64('port id')) : r.u32('port id');
        const creation = tag === Tag.PORT ? r.u8('creation') : r.u32('creation');
        return { type: 'port', node, id, creation };
      }
      case Tag.NEWER_REFERENCE:
      case Tag.NEW_REFERENCE:
        return this.#newReference(tag, at);
      case Tag.REFERENCE: {
        const node = this.#nodeAtom();
        const id = r.u32('reference id');
        return { type: 'reference', node, creation: r.u8('creation'), ids: [id] };
      }
      case Tag.NEW_FUN:
        return this.#fun(at, depth);
      case Tag.EXPORT: {
        const module = this.#atomName('module');
        const fn = this.#atomName('function');
        const arity = this.term(depth + 1);
        if (arity.type !== 'integer' || typeof arity.value !== 'number') {
          throw malformed(r, at, 'export arity is not a small integer');
        }
        return { type: 'export', module, function: fn, arity: arity.value };
      }
      default:
        throw new ErlangDistError('ED_ERR_UNKNOWN_TAG', {
          offset: r.base + at,
          detail: `tag ${tag}`,
          details: { tag },
        });
    }
  }

  #enter(depth: number, at: number): number {
    if (depth >= this.#maxDepth) {
      throw new ErlangDistError('ED_ERR_DEPTH_EXCEEDED', {
        offset: this.#r.base + at,
        details: { maxDepth: this.#maxDepth },
      });
    }
    return depth + 1;
  }

  #big(n: number, at: number): Term {
    const r = this.#r;
    const sign = r.u8('big sign');
    r.checkDeclared(n, 1, 'big digits', at);
    const digits = r.take(n, 'big digits');
    let value = 0n;
    for (let i = n - 1; i >= 0; i--) value = (value << 8n) | BigInt(digits[i]!);
    if (sign !== 0) value = -value;
    return { type: 'integer', value: narrow(value) };
  }

  #stringFloat(at: number): Term {
    const raw = this.#r.take(31, 'float string');
    const end = raw.indexOf(0);
    const text = latin1Text(end === -1 ? raw : raw.subarray(0, end)).trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) throw malformed(this.#r, at, `float string ${JSON.stringify(text)}`);
    return { type: 'float', value };
  }

  #atomBody(tag: number, at: number): string {
    const r = this.#r;
    const small = tag === Tag.SMALL_ATOM_UTF8 || tag === Tag.SMALL_ATOM;
    const n = small ? r.u8('atom length') : r.u16('atom length');
    r.checkDeclared(n, 1, 'atom length', at);
    const raw = r.take(n, 'atom text');
    let ascii = true;
    for (let i = 0; i < n; i++) if (raw[i]! >= 0x80) ascii = false;
    if (ascii || tag === Tag.ATOM || tag === Tag.SMALL_ATOM) return latin1Text(raw);
    try {
      return utf8.decode(raw);
    } catch (cause) {
      throw new ErlangDistError('ED_ERR_BAD_ATOM', { offset: r.base + at, detail: 'invalid UTF-8', cause });
    }
  }

  /** An atom in a field that must be an atom (node names, modules, functions). */
  #atomName(what: string): string {
    const r = this.#r;
    const at = r.offset;
    const tag = r.u8(`${what} tag`);
    if (tag === Tag.ATOM_UTF8 || tag === Tag.SMALL_ATOM_UTF8 || tag === Tag.ATOM || tag === Tag.SMALL_ATOM) {
      return this.#atomBody(tag, at);
    }
    if (tag === Tag.ATOM_CACHE_REF) throw new ErlangDistError('ED_ERR_ATOM_CACHE_REF', { offset: r.base + at });
    throw malformed(r, at, `${what} is not an atom (tag ${tag})`);
  }

  #nodeAtom(): string {
    return this.#atomName('node');
  }

  #tuple(arity: number, at: number, depth: number): Term {
    const inner = this.#enter(depth, at);
    this.#r.checkDeclared(arity, 1, 'tuple arity', at);
    const elements = new Array<Term>(arity);
    for (let i = 0; i < arity; i++) elements[i] = this.term(inner);
    return { type: 'tuple', elements };
  }

  #string(): Term {
    const r = this.#r;
    const n = r.u16('string length');
    const raw = r.take(n, 'string bytes');
    return { type: 'string', value: latin1Text(raw) };
  }

  #list(at: number, depth: number): Term {
    const r = this.#r;
    const n = r.u32('list length');
    const inner = this.#enter(depth, at);
    r.checkDeclared(n, 1, 'list length', at);
    const elements = new Array<Term>(n);
    for (let i = 0; i < n; i++) elements[i] = this.term(inner);
    const tail = this.term(inner);
    if (n === 0) return tail;
    return { type: 'list', elements, tail };
  }

  #map(at: number, depth: number): Term {
    const r = this.#r;
    const n = r.u32('map size');
    const inner = this.#enter(depth, at);
    r.checkDeclared(n, 2, 'map size', at);
    const entries = new Array<readonly [Term, Term]>(n);
    for (let i = 0; i < n; i++) entries[i] = [this.term(inner), this.term(inner)];
    return { type: 'map', entries };
  }

  #bitBinary(at: number): Term {
    const r = this.#r;
    const n = r.u32('bit binary length');
    const bits = r.u8('bits in last byte');
    r.checkDeclared(n, 1, 'bit binary length', at);
    if (n === 0 ? bits !== 0 : bits < 1 || bits > 8) throw malformed(r, at, `${bits} bits in the last of ${n} bytes`);
    const bytes = r.take(n).slice();
    if (n === 0) return { type: 'binary', bytes };
    return { type: 'bitBinary', bytes, bits };
  }

  #pidBody(tag: number): PidTerm {
    const r = this.#r;
    const node = this.#nodeAtom();
    const id = r.u32('pid id');
    const serial = r.u32('pid serial');
    const creation = tag === Tag.PID ? r.u8('creation') : r.u32('creation');
    return { type: 'pid', node, id, serial, creation };
  }

  #newReference(tag: number, at: number): Term {
    const r = this.#r;
    const n = r.u16('reference length');
    const node = this.#nodeAtom();
    const creation = tag === Tag.NEW_REFERENCE ? r.u8('creation') : r.u32('creation');
    r.checkDeclared(n, 4, 'reference length', at);
    const ids = new Array<number>(n);
    for (let i = 0; i < n; i++) ids[i] = r.u32('reference id');
    return { type: 'reference', node, creation, ids };
  }

  #fun(at: number, depth: number): FunTerm {
    const r = this.#r;
    const inner = this.#enter(depth, at);
    const size = r.u32('fun size');
    // Size counts itself and everything after it, but not the tag byte.
    r.checkDeclared(size - 4, 1, 'fun size', at);
    const end = r.offset - 4 + size;
    const arity = r.u8('fun arity');
    const uniq = r.take(16, 'fun uniq').slice();
    const index = r.u32('fun index');
    const numFree = r.u32('fun free variable count');
    const module = this.#atomName('fun module');
    const oldIndex = this.term(inner);
    const oldUniq = this.term(inner);
    const pidAt = r.offset;
    const owner = this.term(inner);
    if (oldIndex.type !== 'integer' || typeof oldIndex.value !== 'number' || oldIndex.value < 0) {
      throw malformed(r, at, 'fun OldIndex is not a small integer');
    }
    if (oldUniq.type !== 'integer' || typeof oldUniq.value !== 'number')
      throw malformed(r, at, 'fun OldUniq is not an integer');
    if (owner.type !== 'pid') throw malformed(r, pidAt, 'fun Pid is not a pid');
    r.checkDeclared(numFree, 1, 'fun free variable count', at);
    const freeVars = new Array<Term>(numFree);
    for (let i = 0; i < numFree; i++) freeVars[i] = this.term(inner);
    if (r.offset !== end) throw malformed(r, at, `fun declares ${size} bytes, holds ${r.offset - end + size}`);
    return {
      type: 'fun',
      module,
      arity,
      uniq,
      index,
      oldIndex: oldIndex.value,
      oldUniq: oldUniq.value,
      pid: owner,
      freeVars,
    };
  }
}

/** Bytes 0..255 as the characters with those codes. */
function latin1Text(raw: Uint8Array): string {
  if (raw.length <= 64) return String.fromCharCode.apply(null, raw as unknown as number[]);
  return Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('latin1');
}

function narrow(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

function malformed(r: ByteReader, at: number, detail: string): ErlangDistError {
  return new ErlangDistError('ED_ERR_MALFORMED', { offset: r.base + at, detail });
}
