/**
 * `originDataType` of `svc-ds-drv-s7`: how the bytes at an address are decoded. S7 stores values
 * big-endian (most significant byte first). Each type fits one address width (BOOL a bit, BYTE a
 * byte, INT a word...); LREAL takes a `D` address and reads 8 bytes. See docs/devices.md, "S7".
 */
import type { S7Address, S7Width } from './s7-address.js';

export type S7DataType =
  | 'BOOL'
  | 'BYTE'
  | 'SINT'
  | 'USINT'
  | 'CHAR'
  | 'WORD'
  | 'INT'
  | 'UINT'
  | 'DWORD'
  | 'DINT'
  | 'UDINT'
  | 'REAL'
  | 'LREAL'
  | 'STRING';

const WIDTH: Readonly<Record<S7DataType, S7Width>> = {
  BOOL: 'X',
  BYTE: 'B',
  SINT: 'B',
  USINT: 'B',
  CHAR: 'B',
  WORD: 'W',
  INT: 'W',
  UINT: 'W',
  DWORD: 'D',
  DINT: 'D',
  UDINT: 'D',
  REAL: 'D',
  LREAL: 'D',
  STRING: 'S',
};

const EXAMPLE: Readonly<Record<S7Width, string>> = {
  X: 'DB1.DBX0.0 or M0.1',
  B: 'DB1.DBB0 or MB0',
  W: 'DB1.DBW0 or MW0',
  D: 'DB1.DBD0 or MD0',
  S: 'DB1.DBS0.20',
};

/** Checks that `text` names a type that fits `address`; throws a RangeError saying why not. */
export function parseS7DataType(text: string, address: S7Address): S7DataType {
  const type = text.trim().toUpperCase();
  if (!Object.hasOwn(WIDTH, type))
    throw new RangeError(`${JSON.stringify(text)} is not an S7 data type: use one of ${Object.keys(WIDTH).join(', ')}`);
  const width = WIDTH[type as S7DataType];
  if (width !== address.width)
    throw new RangeError(`${type} is read from an address like ${EXAMPLE[width]}, not a ${address.width} address`);
  return type as S7DataType;
}

/** Bytes a value of `type` at `address` takes. */
export function sizeOf(address: S7Address, type: S7DataType): number {
  switch (type) {
    case 'BOOL':
    case 'BYTE':
    case 'SINT':
    case 'USINT':
    case 'CHAR':
      return 1;
    case 'WORD':
    case 'INT':
    case 'UINT':
      return 2;
    case 'LREAL':
      return 8;
    case 'DWORD':
    case 'DINT':
    case 'UDINT':
    case 'REAL':
      return 4;
    case 'STRING':
      return 2 + (address.length ?? 0);
  }
}

/** Decodes the `sizeOf` bytes of a value; `bytes` starts at the address's byte. */
export function decodeS7(bytes: Buffer, address: S7Address, type: S7DataType): boolean | number | string {
  switch (type) {
    case 'BOOL':
      return ((bytes.readUInt8(0) >> (address.bit ?? 0)) & 1) === 1;
    case 'BYTE':
    case 'USINT':
      return bytes.readUInt8(0);
    case 'SINT':
      return bytes.readInt8(0);
    case 'CHAR':
      return bytes.toString('latin1', 0, 1);
    case 'WORD':
    case 'UINT':
      return bytes.readUInt16BE(0);
    case 'INT':
      return bytes.readInt16BE(0);
    case 'DWORD':
    case 'UDINT':
      return bytes.readUInt32BE(0);
    case 'DINT':
      return bytes.readInt32BE(0);
    case 'REAL':
      return bytes.readFloatBE(0);
    case 'LREAL':
      return bytes.readDoubleBE(0);
    case 'STRING': {
      // Byte 0 the declared maximum length, byte 1 the current length, then the characters.
      const declared = address.length ?? 0;
      const current = Math.min(bytes.readUInt8(1), declared);
      return bytes.toString('latin1', 2, 2 + current);
    }
  }
}
