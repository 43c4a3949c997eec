/**
 * SNMP varbinds as datapoint values. First each SNMP type becomes its natural value (the table in
 * docs/devices.md, section SNMP), then the datapoint's `dataType` shapes it: STRING always gives
 * text, the number types a number, BOOLEAN a boolean. A value that cannot take the asked shape
 * (the text "up" as a DOUBLE) reads as `null` with quality `bad`, like an object the agent lacks.
 */
import snmp from 'net-snmp';
import type { PointRequest } from '../../driver.js';

/** What one varbind means for one datapoint. */
export interface SnmpReading {
  readonly rawValue: unknown;
  readonly quality: 'good' | 'bad';
}

const BAD: SnmpReading = { rawValue: null, quality: 'bad' };
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True for noSuchObject, noSuchInstance and endOfMibView: the agent has no such value. */
export function isMissing(varbind: snmp.Varbind): boolean {
  return (
    varbind.type === snmp.ObjectType.NoSuchObject ||
    varbind.type === snmp.ObjectType.NoSuchInstance ||
    varbind.type === snmp.ObjectType.EndOfMibView
  );
}

/** The reading of `varbind` for a datapoint of `dataType` (and `originDataType`, for hints). */
export function readingOf(
  varbind: snmp.Varbind,
  point: Pick<PointRequest, 'dataType' | 'originDataType'>,
): SnmpReading {
  if (isMissing(varbind)) return BAD;
  const value = shape(varbind, point);
  return value === undefined ? BAD : { rawValue: value, quality: 'good' };
}

/** An octet string as text: UTF-8 without control characters (trailing NULs dropped), else `undefined`. */
export function printableText(bytes: Buffer): string | undefined {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  let text: string;
  try {
    text = utf8.decode(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127) return undefined;
  }
  return text;
}

/** Bytes as lower-case hex pairs joined by colons (`00:1a:2b`), the usual form of MAC addresses. */
export function hexText(bytes: Buffer): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

/** A Counter64 as a number when it is a safe integer, else its exact decimal text. */
export function counter64Value(value: unknown): number | string | undefined {
  const big = bigIntOf(value);
  if (big === undefined) return undefined;
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

/** The natural value of a varbind of any SNMP type, before the datapoint's dataType applies. */
export function naturalValue(varbind: snmp.Varbind, originDataType = ''): unknown {
  const value = varbind.value;
  if (varbind.type === snmp.ObjectType.OctetString && Buffer.isBuffer(value)) {
    if (/hex|physaddress|macaddress/i.test(originDataType)) return hexText(value);
    if (/displaystring/i.test(originDataType)) return value.toString('utf8');
    return printableText(value) ?? hexText(value);
  }
  if (varbind.type === snmp.ObjectType.Counter64) return counter64Value(value);
  // Opaque (and anything else that arrives as bytes) as hex; Integer, the counters, gauges,
  // TimeTicks, IpAddress, OID, Boolean and Null as net-snmp decodes them.
  if (Buffer.isBuffer(value)) return hexText(value);
  return typeof value === 'bigint' ? value.toString() : value;
}

function shape(varbind: snmp.Varbind, point: Pick<PointRequest, 'dataType' | 'originDataType'>): unknown {
  const natural = naturalValue(varbind, point.originDataType);
  if (natural === null) return null;
  switch (point.dataType) {
    case 'STRING':
      return textOf(varbind, natural);
    case 'BYTE':
    case 'INTEGER':
    case 'LONG':
    case 'FLOAT':
    case 'DOUBLE':
      return numberOf(varbind, natural);
    case 'BOOLEAN':
      return booleanOf(natural, point.originDataType);
    case 'DATE':
      return dateOf(varbind, natural);
    case 'INTEGER_ARRAY':
    case 'LONG_ARRAY':
    case 'DOUBLE_ARRAY':
    case 'FLOAT_ARRAY':
      return numbersOf(varbind, natural);
    case 'STRING_ARRAY':
      return [textOf(varbind, natural)];
    case 'BOOLEAN_ARRAY':
      return [booleanOf(natural, point.originDataType)];
    case 'ARRAY':
    case 'OBJECT':
      return natural;
  }
}

function textOf(varbind: snmp.Varbind, natural: unknown): string {
  if (varbind.type === snmp.ObjectType.Counter64) return bigIntOf(varbind.value)?.toString() ?? String(natural);
  return typeof natural === 'string' ? natural : String(natural);
}

function numberOf(varbind: snmp.Varbind, natural: unknown): number | undefined {
  if (varbind.type === snmp.ObjectType.Counter64) {
    const big = bigIntOf(varbind.value);
    return big === undefined ? undefined : Number(big);
  }
  if (typeof natural === 'number') return natural;
  if (typeof natural === 'boolean') return natural ? 1 : 0;
  if (typeof natural === 'string' && varbind.type === snmp.ObjectType.OctetString) {
    const text = natural.trim();
    return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : undefined;
  }
  return undefined;
}

/** TruthValue (RFC 2579): 1 is true, 2 is false; other integers: non-zero is true. */
function booleanOf(natural: unknown, originDataType: string): boolean | undefined {
  if (typeof natural === 'boolean') return natural;
  if (typeof natural === 'number') {
    if (/truthvalue/i.test(originDataType)) return natural === 1 ? true : natural === 2 ? false : undefined;
    return natural !== 0;
  }
  if (typeof natural === 'string') {
    const text = natural.trim().toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(text)) return true;
    if (['false', 'no', 'off', '0', '2'].includes(text)) return false;
  }
  return undefined;
}

/** DateAndTime (RFC 2579: 8 or 11 octets) as an ISO 8601 text; other values as they are. */
function dateOf(varbind: snmp.Varbind, natural: unknown): unknown {
  const bytes = varbind.value;
  if (varbind.type !== snmp.ObjectType.OctetString || !Buffer.isBuffer(bytes)) return natural;
  if (bytes.length !== 8 && bytes.length !== 11) return natural;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const byte = (at: number) => bytes.readUInt8(at); // in range: the length is checked above
  const date =
    `${pad(bytes.readUInt16BE(0), 4)}-${pad(byte(2))}-${pad(byte(3))}` +
    `T${pad(byte(4))}:${pad(byte(5))}:${pad(byte(6))}.${byte(7)}`;
  if (bytes.length === 8) return date;
  return `${date}${String.fromCharCode(byte(8))}${pad(byte(9))}:${pad(byte(10))}`;
}

/** An octet string as its bytes, an OID as its components, anything else as a one-element list. */
function numbersOf(varbind: snmp.Varbind, natural: unknown): number[] | undefined {
  if (Buffer.isBuffer(varbind.value)) return [...varbind.value];
  if (varbind.type === snmp.ObjectType.OID && typeof natural === 'string') return natural.split('.').map(Number);
  const number = numberOf(varbind, natural);
  return number === undefined ? undefined : [number];
}

function bigIntOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (!Buffer.isBuffer(value)) return undefined;
  let big = 0n;
  for (const byte of value) big = (big << 8n) | BigInt(byte);
  return big;
}
