/**
 * The `originAddress` grammar of `svc-ds-drv-s7` (docs/devices.md, "S7"), in the Siemens STEP 7
 * notation, letters in either case:
 *
 * - data blocks: `DB<n>.DBX<byte>.<bit>` (a bit), `DB<n>.DBB<byte>` (a byte), `DB<n>.DBW<byte>`
 *   (a word, 2 bytes), `DB<n>.DBD<byte>` (a double word, 4 bytes; 8 for LREAL) and
 *   `DB<n>.DBS<byte>.<length>` (an S7 STRING of that declared length);
 * - merker (flags) `M`, inputs `I` (German `E`) and outputs `Q` (German `A`) in the same widths:
 *   `M<byte>.<bit>`, `MB<byte>`, `MW<byte>`, `MD<byte>`, `I0.1`, `IW2`, `QD4`, `EB0`, `A1.7`.
 *
 * Byte offsets are 0 to 65535, bits 0 to 7, DB numbers 1 to 65535, string lengths 1 to 254.
 */

export type S7Area = 'DB' | 'M' | 'I' | 'Q';

/** How wide the address says the value is: X a bit, B a byte, W a word, D a double word, S a string. */
export type S7Width = 'X' | 'B' | 'W' | 'D' | 'S';

export interface S7Address {
  readonly area: S7Area;
  /** The DB number; 0 outside data blocks. */
  readonly db: number;
  /** Byte offset in the area. */
  readonly byte: number;
  readonly width: S7Width;
  /** The bit of `byte` (0 least significant), for `X`. */
  readonly bit?: number;
  /** The declared length of an S7 STRING, for `S`. */
  readonly length?: number;
}

const DB = /^DB(\d{1,5})\.DB([XBWDS])(\d{1,5})(?:\.(\d{1,3}))?$/i;
const OTHER = /^([MIEQA])([BWD]?)(\d{1,5})(?:\.(\d))?$/i;

const AREAS: Readonly<Record<string, S7Area>> = { M: 'M', I: 'I', E: 'I', Q: 'Q', A: 'Q' };

/** Parses an address; throws a RangeError saying what is wrong. */
export function parseS7Address(text: string): S7Address {
  const db = DB.exec(text);
  if (db !== null) {
    const [, number = '', letter = '', byteText = '', suffix] = db;
    const width = letter.toUpperCase() as S7Width;
    const dbNumber = inRange(number, 1, 65_535, 'the DB number', text);
    return withSuffix(
      text,
      { area: 'DB', db: dbNumber, byte: inRange(byteText, 0, 65_535, 'the byte', text), width },
      suffix,
    );
  }
  const other = OTHER.exec(text);
  if (other !== null) {
    const [, areaLetter = '', letter = '', byteText = '', suffix] = other;
    const area = AREAS[areaLetter.toUpperCase()] as S7Area;
    const width = (letter === '' ? 'X' : letter.toUpperCase()) as S7Width;
    return withSuffix(text, { area, db: 0, byte: inRange(byteText, 0, 65_535, 'the byte', text), width }, suffix);
  }
  throw new RangeError(
    `${JSON.stringify(text)} is not an S7 address: write DB1.DBX0.0, DB1.DBB2, DB1.DBW2, DB1.DBD4, DB1.DBS10.20, ` +
      'M0.1, MB1, MW2, MD4, I0.1, IW2, Q0.0 or QD4',
  );
}

function withSuffix(text: string, address: S7Address, suffix: string | undefined): S7Address {
  if (address.width === 'X') {
    if (suffix === undefined) throw new RangeError(`${JSON.stringify(text)} names a bit: add .0 to .7`);
    return { ...address, bit: inRange(suffix, 0, 7, 'the bit', text) };
  }
  if (address.width === 'S') {
    if (suffix === undefined)
      throw new RangeError(`${JSON.stringify(text)} names a string: add its declared length, as in DB1.DBS10.20`);
    return { ...address, length: inRange(suffix, 1, 254, 'the string length', text) };
  }
  if (suffix !== undefined)
    throw new RangeError(`${JSON.stringify(text)}: only bits (X) and strings (S) take a suffix`);
  return address;
}

function inRange(digits: string, min: number, max: number, what: string, text: string): number {
  const value = Number(digits);
  if (value < min || value > max) throw new RangeError(`${JSON.stringify(text)}: ${what} must be ${min} to ${max}`);
  return value;
}
