import { ByteWriter } from './byte-writer.js';
import { ErlangDistError } from './errors.js';
import { Tag } from './etf-tags.js';
import type { FunTerm, Term } from './term.js';

const MAX_ENCODE_DEPTH = 10_000;
const I32_MIN = -0x8000_0000;
const I32_MAX = 0x7fff_ffff;
const utf8 = new TextEncoder();

/**
 * Encodes `term` as a standalone external term (`131` + term), the way OTP's
 * `term_to_binary(Term, [{minor_version, 2}])` does: atoms as (SMALL_)ATOM_UTF8, integers as
 * SMALL_INTEGER / INTEGER / SMALL_BIG / LARGE_BIG by magnitude, floats as NEW_FLOAT, proper lists
 * of at most 65535 integers 0..255 as STRING, pids as NEW_PID, ports as NEW_PORT (V4_PORT above
 * 32 bits), references as NEWER_REFERENCE. Throws `ErlangDistError` ED_ERR_UNENCODABLE for values
 * that have no encoding (non-integer integers, non-finite floats, out-of-range fields, nesting
 * deeper than 10,000).
 */
export function encodeTerm(term: Term): Uint8Array {
  const w = new ByteWriter();
  writeVersionedTerm(w, term);
  return w.finish();
}

/** Appends `131` + `term` to `w` (building block of pass-through messages). */
export function writeVersionedTerm(w: ByteWriter, term: Term): void {
  w.u8(Tag.VERSION);
  writeTerm(w, term, 0);
}

/** Appends `term` without the version byte (building block of the cached-prefix encoders). */
export function writeBareTerm(w: ByteWriter, term: Term): void {
  writeTerm(w, term, 0);
}

function writeTerm(w: ByteWriter, t: Term, depth: number): void {
  if (depth > MAX_ENCODE_DEPTH) throw unencodable(`nesting deeper than ${MAX_ENCODE_DEPTH}`);
  switch (t.type) {
    case 'atom':
      return writeAtom(w, t.name);
    case 'integer':
      return writeInteger(w, t.value);
    case 'float':
      if (!Number.isFinite(t.value)) throw unencodable(`float ${t.value}`);
      w.u8(Tag.NEW_FLOAT);
      return w.f64(t.value);
    case 'tuple':
      if (t.elements.length <= 0xff) {
        w.u8(Tag.SMALL_TUPLE);
        w.u8(t.elements.length);
      } else {
        w.u8(Tag.LARGE_TUPLE);
        w.u32(checkU32(t.elements.length, 'tuple arity'));
      }
      for (const e of t.elements) writeTerm(w, e, depth + 1);
      return;
    case 'nil':
      return w.u8(Tag.NIL);
    case 'list':
      return writeList(w, t.elements, t.tail, depth);
    case 'string':
      return writeString(w, t.value);
    case 'map':
      w.u8(Tag.MAP);
      w.u32(checkU32(t.entries.length, 'map size'));
      for (const [k, v] of t.entries) {
        writeTerm(w, k, depth + 1);
        writeTerm(w, v, depth + 1);
      }
      return;
    case 'binary':
      w.u8(Tag.BINARY);
      w.u32(checkU32(t.bytes.length, 'binary length'));
      return w.bytes(t.bytes);
    case 'bitBinary':
      if (t.bytes.length === 0 || !Number.isInteger(t.bits) || t.bits < 1 || t.bits > 8) {
        throw unencodable(`bit binary of ${t.bytes.length} bytes with ${t.bits} bits in the last`);
      }
      w.u8(Tag.BIT_BINARY);
      w.u32(checkU32(t.bytes.length, 'bit binary length'));
      w.u8(t.bits);
      return w.bytes(t.bytes);
    case 'pid':
      w.u8(Tag.NEW_PID);
      writeAtom(w, t.node);
      w.u32(checkU32(t.id, 'pid id'));
      w.u32(checkU32(t.serial, 'pid serial'));
      return w.u32(checkU32(t.creation, 'pid creation'));
    case 'port':
      if (typeof t.id === 'bigint' || t.id > 0xffff_ffff) {
        const id = BigInt(t.id);
        if (id < 0n || id > 0xffff_ffff_ffff_ffffn) throw unencodable(`port id ${t.id}`);
        w.u8(Tag.V4_PORT);
        writeAtom(w, t.node);
        w.u64(id);
      } else {
        w.u8(Tag.NEW_PORT);
        writeAtom(w, t.node);
        w.u32(checkU32(t.id, 'port id'));
      }
      return w.u32(checkU32(t.creation, 'port creation'));
    case 'reference':
      if (t.ids.length === 0 || t.ids.length > 5) throw unencodable(`reference with ${t.ids.length} ids`);
      w.u8(Tag.NEWER_REFERENCE);
      w.u16(t.ids.length);
      writeAtom(w, t.node);
      w.u32(checkU32(t.creation, 'reference creation'));
      for (const id of t.ids) w.u32(checkU32(id, 'reference id'));
      return;
    case 'fun':
      return writeFun(w, t, depth);
    case 'export':
      w.u8(Tag.EXPORT);
      writeAtom(w, t.module);
      writeAtom(w, t.function);
      if (!Number.isInteger(t.arity) || t.arity < 0 || t.arity > 255) throw unencodable(`export arity ${t.arity}`);
      w.u8(Tag.SMALL_INTEGER);
      return w.u8(t.arity);
    default:
      throw unencodable(`unknown term type ${JSON.stringify((t as { type?: unknown }).type)}`);
  }
}

/** Appends an atom as OTP writes it: SMALL_ATOM_UTF8 up to 255 bytes, ATOM_UTF8 above. */
export function writeAtom(w: ByteWriter, name: string): void {
  let ascii = true;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) {
    if (name.length <= 0xff) {
      w.u8(Tag.SMALL_ATOM_UTF8);
      w.u8(name.length);
    } else {
      if (name.length > 0xffff) throw unencodable(`atom of ${name.length} bytes`);
      w.u8(Tag.ATOM_UTF8);
      w.u16(name.length);
    }
    return w.latin1(name);
  }
  const bytes = utf8.encode(name);
  if (bytes.length > 0xffff) throw unencodable(`atom of ${bytes.length} bytes`);
  if (bytes.length <= 0xff) {
    w.u8(Tag.SMALL_ATOM_UTF8);
    w.u8(bytes.length);
  } else {
    w.u8(Tag.ATOM_UTF8);
    w.u16(bytes.length);
  }
  w.bytes(bytes);
}

function writeInteger(w: ByteWriter, value: number | bigint): void {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw unencodable(`integer ${value}`);
    if (value >= 0 && value <= 0xff) {
      w.u8(Tag.SMALL_INTEGER);
      return w.u8(value);
    }
    if (value >= I32_MIN && value <= I32_MAX) {
      w.u8(Tag.INTEGER);
      return w.i32(value);
    }
    return writeBig(w, BigInt(value));
  }
  if (value >= BigInt(I32_MIN) && value <= BigInt(I32_MAX)) return writeInteger(w, Number(value));
  return writeBig(w, value);
}

function writeBig(w: ByteWriter, value: bigint): void {
  let magnitude = value < 0n ? -value : value;
  const digits: number[] = [];
  while (magnitude > 0n) {
    digits.push(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  if (digits.length <= 0xff) {
    w.u8(Tag.SMALL_BIG);
    w.u8(digits.length);
  } else {
    w.u8(Tag.LARGE_BIG);
    w.u32(checkU32(digits.length, 'big length'));
  }
  w.u8(value < 0n ? 1 : 0);
  for (const d of digits) w.u8(d);
}

function isByte(t: Term): boolean {
  return (
    t.type === 'integer' && typeof t.value === 'number' && t.value >= 0 && t.value <= 0xff && Number.isInteger(t.value)
  );
}

function writeList(w: ByteWriter, elements: readonly Term[], tail: Term, depth: number): void {
  if (elements.length === 0) return writeTerm(w, tail, depth);
  // OTP writes a proper list of small byte values as STRING_EXT; so do we, to match its bytes.
  if (tail.type === 'nil' && elements.length <= 0xffff && elements.every(isByte)) {
    w.u8(Tag.STRING);
    w.u16(elements.length);
    for (const e of elements) w.u8((e as { value: number }).value);
    return;
  }
  w.u8(Tag.LIST);
  w.u32(checkU32(elements.length, 'list length'));
  for (const e of elements) writeTerm(w, e, depth + 1);
  writeTerm(w, tail, depth + 1);
}

function writeString(w: ByteWriter, value: string): void {
  if (value.length === 0) return w.u8(Tag.NIL);
  let latin1 = value.length <= 0xffff;
  for (let i = 0; latin1 && i < value.length; i++) if (value.charCodeAt(i) > 0xff) latin1 = false;
  if (latin1) {
    w.u8(Tag.STRING);
    w.u16(value.length);
    return w.latin1(value);
  }
  // Longer than STRING_EXT allows, or beyond Latin-1: a list of code points, as Erlang has it.
  const codePoints = Array.from(value, (c) => ({ type: 'integer', value: c.codePointAt(0)! }) as const);
  w.u8(Tag.LIST);
  w.u32(checkU32(codePoints.length, 'list length'));
  for (const c of codePoints) writeInteger(w, c.value);
  w.u8(Tag.NIL);
}

function writeFun(w: ByteWriter, t: FunTerm, depth: number): void {
  if (t.uniq.length !== 16) throw unencodable(`fun uniq of ${t.uniq.length} bytes`);
  if (!Number.isInteger(t.arity) || t.arity < 0 || t.arity > 255) throw unencodable(`fun arity ${t.arity}`);
  w.u8(Tag.NEW_FUN);
  const sizeAt = w.length;
  w.u32(0);
  w.u8(t.arity);
  w.bytes(t.uniq);
  w.u32(checkU32(t.index, 'fun index'));
  w.u32(checkU32(t.freeVars.length, 'fun free variable count'));
  writeAtom(w, t.module);
  writeInteger(w, t.oldIndex);
  writeInteger(w, t.oldUniq);
  writeTerm(w, t.pid, depth + 1);
  for (const v of t.freeVars) writeTerm(w, v, depth + 1);
  w.patchU32(sizeAt, w.length - sizeAt);
}

function checkU32(v: number, what: string): number {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff) throw unencodable(`${what} ${v}`);
  return v;
}

function unencodable(detail: string): ErlangDistError {
  return new ErlangDistError('ED_ERR_UNENCODABLE', { detail });
}
