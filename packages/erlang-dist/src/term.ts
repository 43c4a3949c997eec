/**
 * The typed model of Erlang terms that the external-term-format codec reads and writes.
 *
 * - Integers are `number` when they are safe JavaScript integers and `bigint` otherwise (the
 *   decoder follows that rule; the encoder accepts both).
 * - `nil` is the empty list `[]`. A `list` has at least one element; `tail` is `nil` for a proper
 *   list and any other term for an improper one (`[1|2]`).
 * - `string` is STRING_EXT: a proper list of integers 0..255, kept as a string of those char codes
 *   (Erlang sends `"abc"` and `[1,2,3]` this way). Lists holding larger integers arrive as `list`.
 * - `pid`, `port` and `reference` carry the node name as a string and the raw fields; `ids` of a
 *   reference are in wire order.
 * - `fun` (NEW_FUN_EXT) is kept with all its fields so that it re-encodes byte for byte; funs are
 *   never needed to talk to `rex`.
 */
export type Term =
  | AtomTerm
  | IntegerTerm
  | FloatTerm
  | TupleTerm
  | NilTerm
  | ListTerm
  | StringTerm
  | MapTerm
  | BinaryTerm
  | BitBinaryTerm
  | PidTerm
  | PortTerm
  | ReferenceTerm
  | FunTerm
  | ExportTerm;

export interface AtomTerm {
  readonly type: 'atom';
  readonly name: string;
}
export interface IntegerTerm {
  readonly type: 'integer';
  readonly value: number | bigint;
}
export interface FloatTerm {
  readonly type: 'float';
  readonly value: number;
}
export interface TupleTerm {
  readonly type: 'tuple';
  readonly elements: readonly Term[];
}
export interface NilTerm {
  readonly type: 'nil';
}
export interface ListTerm {
  readonly type: 'list';
  readonly elements: readonly Term[];
  readonly tail: Term;
}
export interface StringTerm {
  readonly type: 'string';
  readonly value: string;
}
export interface MapTerm {
  readonly type: 'map';
  readonly entries: readonly (readonly [Term, Term])[];
}
export interface BinaryTerm {
  readonly type: 'binary';
  readonly bytes: Uint8Array;
}
/** A bitstring: `bits` (1..8) of the last byte are used; the unused low bits are zero. */
export interface BitBinaryTerm {
  readonly type: 'bitBinary';
  readonly bytes: Uint8Array;
  readonly bits: number;
}
export interface PidTerm {
  readonly type: 'pid';
  readonly node: string;
  readonly id: number;
  readonly serial: number;
  readonly creation: number;
}
export interface PortTerm {
  readonly type: 'port';
  readonly node: string;
  readonly id: number | bigint;
  readonly creation: number;
}
export interface ReferenceTerm {
  readonly type: 'reference';
  readonly node: string;
  readonly creation: number;
  readonly ids: readonly number[];
}
export interface FunTerm {
  readonly type: 'fun';
  readonly module: string;
  readonly arity: number;
  readonly uniq: Uint8Array;
  readonly index: number;
  readonly oldIndex: number;
  readonly oldUniq: number;
  readonly pid: PidTerm;
  readonly freeVars: readonly Term[];
}
export interface ExportTerm {
  readonly type: 'export';
  readonly module: string;
  readonly function: string;
  readonly arity: number;
}

/** `[]`, shared. */
export const NIL: NilTerm = Object.freeze({ type: 'nil' });

export function atom(name: string): AtomTerm {
  return { type: 'atom', name };
}

/** An integer term; `value` must be an integer (checked when encoding). */
export function int(value: number | bigint): IntegerTerm {
  return { type: 'integer', value };
}

export function float(value: number): FloatTerm {
  return { type: 'float', value };
}

export function tuple(...elements: Term[]): TupleTerm {
  return { type: 'tuple', elements };
}

/** A list; with no elements and the default tail this is `[]`. */
export function list(elements: readonly Term[], tail: Term = NIL): Term {
  return elements.length === 0 ? tail : { type: 'list', elements, tail };
}

export function string(value: string): StringTerm {
  return { type: 'string', value };
}

export function map(entries: readonly (readonly [Term, Term])[]): MapTerm {
  return { type: 'map', entries };
}

export function binary(bytes: Uint8Array | string): BinaryTerm {
  return { type: 'binary', bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes };
}

export function bitBinary(bytes: Uint8Array, bits: number): BitBinaryTerm {
  return { type: 'bitBinary', bytes, bits };
}

export function pid(node: string, id: number, serial: number, creation: number): PidTerm {
  return { type: 'pid', node, id, serial, creation };
}

export function port(node: string, id: number | bigint, creation: number): PortTerm {
  return { type: 'port', node, id, creation };
}

export function reference(node: string, creation: number, ids: readonly number[]): ReferenceTerm {
  return { type: 'reference', node, creation, ids };
}

export function exportFun(module: string, fn: string, arity: number): ExportTerm {
  return { type: 'export', module, function: fn, arity };
}

/** True when `term` is the atom `name`. */
export function isAtom(term: Term | undefined, name?: string): term is AtomTerm {
  return term?.type === 'atom' && (name === undefined || term.name === name);
}

/** The elements of a tuple of exactly `arity` elements, or undefined. */
export function tupleOf(term: Term | undefined, arity: number): readonly Term[] | undefined {
  return term?.type === 'tuple' && term.elements.length === arity ? term.elements : undefined;
}

/**
 * The elements of a proper list (`nil`, `list` with a `nil` tail, or `string` as small integers),
 * or undefined for anything else.
 */
export function listElements(term: Term | undefined): readonly Term[] | undefined {
  if (term === undefined) return undefined;
  if (term.type === 'nil') return [];
  if (term.type === 'list') return term.tail.type === 'nil' ? term.elements : undefined;
  if (term.type === 'string') return Array.from(term.value, (c) => int(c.charCodeAt(0)));
  return undefined;
}
