/**
 * The `originDataType`s of `svc-ds-drv-modbus-tcp` and how register contents decode into values.
 * Each register is big-endian (high byte first), as Modbus says. Values wider than one register
 * take the high word first by default (`float32`: ABCD); `-swapped` takes the low word first
 * (`float32-swapped`: CDAB), as many meters and PLCs do. For `string`, `-swapped` means the low
 * byte of each register comes first. `int64`/`uint64` beyond 2^53 come out as the nearest double.
 */
import { isBitArea, type ModbusAddress } from './modbus-address.js';

export type ModbusValueKind =
  'bool' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'float32' | 'float64' | 'string';

export interface ModbusDataType {
  readonly kind: ModbusValueKind;
  /** Word order reversed (32/64-bit) or byte order within each register reversed (`string`). */
  readonly swapped: boolean;
}

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
  const match = /^([a-z0-9]+)(-swapped)?$/i.exec(text);
  const name = match?.[1]?.toLowerCase();
  const kind = name === 'boolean' ? 'bool' : KINDS.find((k) => k === name);
  if (match === null || kind === undefined)
    throw new RangeError(
      `${JSON.stringify(text)} is not a Modbus data type: use ${KINDS.join(', ')}, ` +
        `with -swapped for the low word first (e.g. float32-swapped)`,
    );
  const swapped = match[2] !== undefined;
  if (swapped && WORDS[kind] === 1 && kind !== 'string')
    throw new RangeError(`${text}: ${kind} is one register, it has no word order to swap`);
  return { kind, swapped };
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
  const ordered = type.swapped && type.kind !== 'string' ? [...registers].reverse() : registers;
  const bytes = Buffer.alloc(ordered.length * 2);
  ordered.forEach((word, i) => {
    if (type.kind === 'string' && type.swapped) bytes.writeUInt16LE(word & 0xffff, i * 2);
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
