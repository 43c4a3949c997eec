/**
 * The `originDataType`s of `svc-ds-drv-modbus-tcp` and how register contents decode into values.
 * Each register is big-endian (high byte first), as Modbus says. Values wider than one register
 * take one of four byte orders, named by the letters of a 32-bit value's bytes A (most
 * significant) to D as they arrive: `-abcd` (the default: high word first, high byte first),
 * `-cdab` (low word first, as many meters and PLCs do; `-swapped` says the same), `-dcba`
 * (little-endian throughout) and `-badc` (high word first, the bytes of each register swapped).
 * A 64-bit value orders its four registers the same way. For `string`, `-swapped` means the low
 * byte of each register comes first. `int64`/`uint64` beyond 2^53 come out as the nearest double.
 */
import { isBitArea, type ModbusAddress } from './modbus-address.js';

export type ModbusValueKind =
  'bool' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'float32' | 'float64' | 'string';

export interface ModbusDataType {
  readonly kind: ModbusValueKind;
  /** 32/64-bit: the lowest word comes first (`-cdab`, `-dcba`). */
  readonly lowWordFirst: boolean;
  /** The bytes of each register are swapped (`-dcba`, `-badc`, and `string-swapped`). */
  readonly swapBytes: boolean;
}

/** The byte-order suffixes of values wider than one register: `[lowWordFirst, swapBytes]`. */
const ORDERS: Readonly<Record<string, readonly [boolean, boolean]>> = {
  abcd: [false, false],
  cdab: [true, false],
  swapped: [true, false],
  dcba: [true, true],
  badc: [false, true],
};

const WORDS: Readonly<Record<ModbusValueKind, number>> = {
  bool: 1,
  int16: 1,
  uint16: 1,
  int32: 2,
  uint32: 2,
  int64: 4,
  uint64: 4,
  float32: 2,
  float64: 4,
  string: 1,
};

const KINDS = Object.keys(WORDS) as ModbusValueKind[];

/** Parses an `originDataType` (case does not matter; `boolean` is `bool`); throws a `RangeError`. */
export function parseModbusDataType(text: string): ModbusDataType {
  const match = /^([a-z0-9]+)(?:-([a-z]+))?$/i.exec(text);
  const name = match?.[1]?.toLowerCase();
  const kind = name === 'boolean' ? 'bool' : KINDS.find((k) => k === name);
  if (match === null || kind === undefined)
    throw new RangeError(
      `${JSON.stringify(text)} is not a Modbus data type: use ${KINDS.join(', ')}, ` +
        `with -abcd, -cdab, -dcba or -badc for the byte order of wider types (e.g. float32-cdab)`,
    );
  const suffix = match[2]?.toLowerCase();
  if (suffix === undefined) return { kind, lowWordFirst: false, swapBytes: false };
  if (kind === 'string') {
    if (suffix !== 'swapped') throw new RangeError(`${text}: a string takes only -swapped (low byte first)`);
    return { kind, lowWordFirst: false, swapBytes: true };
  }
  if (WORDS[kind] === 1) throw new RangeError(`${text}: ${kind} is one register, it has no word order to swap`);
  const order = ORDERS[suffix];
  if (order === undefined)
    throw new RangeError(`${text}: the byte order is one of -abcd, -cdab, -dcba, -badc (or -swapped for -cdab)`);
  return { kind, lowWordFirst: order[0], swapBytes: order[1] };
}

/** Checks that a type fits an address and returns how many registers (or bits) it reads. */
export function spanOf(address: ModbusAddress, type: ModbusDataType): number {
  if (isBitArea(address.area)) {
    if (type.kind !== 'bool') throw new RangeError(`a ${address.area} is read as bool, not ${type.kind}`);
    return 1;
  }
  if (address.bit !== undefined && type.kind !== 'bool')
    throw new RangeError(`a register bit (".${address.bit}") is read as bool, not ${type.kind}`);
  if (type.kind === 'string') {
    if (address.length === undefined)
      throw new RangeError('a string needs its length in registers after the address, e.g. holding:100:10');
    return address.length;
  }
  if (address.length !== undefined)
    throw new RangeError(`":${address.length}" is a string's length; ${type.kind} has a fixed size`);
  return WORDS[type.kind];
}

/** Decodes registers (16-bit unsigned numbers, as many as `spanOf` says) into the value. */
export function decodeRegisters(registers: readonly number[], address: ModbusAddress, type: ModbusDataType): unknown {
  if (type.kind === 'bool') {
    const word = registers[0] ?? 0;
    return address.bit === undefined ? word !== 0 : ((word >> address.bit) & 1) === 1;
  }
  const ordered = type.lowWordFirst ? [...registers].reverse() : registers;
  const bytes = Buffer.alloc(ordered.length * 2);
  ordered.forEach((word, i) => {
    if (type.swapBytes) bytes.writeUInt16LE(word & 0xffff, i * 2);
    else bytes.writeUInt16BE(word & 0xffff, i * 2);
  });
  switch (type.kind) {
    case 'int16':
      return bytes.readInt16BE(0);
    case 'uint16':
      return bytes.readUInt16BE(0);
    case 'int32':
      return bytes.readInt32BE(0);
    case 'uint32':
      return bytes.readUInt32BE(0);
    case 'int64':
      return Number(bytes.readBigInt64BE(0));
    case 'uint64':
      return Number(bytes.readBigUInt64BE(0));
    case 'float32':
      return bytes.readFloatBE(0);
    case 'float64':
      return bytes.readDoubleBE(0);
    case 'string': {
      const end = bytes.indexOf(0);
      return bytes.toString('utf8', 0, end === -1 ? bytes.length : end).trimEnd();
    }
  }
}
