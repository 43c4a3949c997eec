/**
 * The `originAddress` grammar of `svc-ds-drv-modbus-tcp` (docs/devices.md, "Modbus-TCP"):
 *
 * - `coil:N`, `discrete:N`, `input:N`, `holding:N`: the table by name and N the 0-based protocol
 *   address (0 to 65535), the number sent on the wire. `holding:30013` is holding register 30013.
 * - Modicon references, 1-based, the table in the first digit: `00001`-`09999` coils,
 *   `10001`-`19999` discrete inputs, `30001`-`39999` input registers, `40001`-`49999` holding
 *   registers, and the six-digit forms `000001`-`465536`. `40001` is holding register 0.
 * - `CO:`, `DI:`, `IR:`, `HR:` before a Modicon reference of that same table (`HR:40001`).
 * - Suffixes: `.B` a bit (0-15, 0 least significant) of a register, read as `bool`;
 *   `:L` the number of registers a `string` spans (1-125).
 * - Prefix `unitN:` (N 0-255): read from unit N behind the gateway instead of the device's
 *   `slaveId` (`unit3:holding:100`, `unit3:40001`), so one device reads several units.
 */

export type ModbusArea = 'coil' | 'discrete' | 'input' | 'holding';

export interface ModbusAddress {
  /** The unit id of a `unitN:` prefix; absent: the device's `slaveId`. */
  readonly unit?: number;
  readonly area: ModbusArea;
  /** 0-based protocol address. */
  readonly address: number;
  /** A bit of a register (0 = least significant). */
  readonly bit?: number;
  /** Registers a string spans. */
  readonly length?: number;
}

/** Bits (coils, discrete inputs) or 16-bit registers. */
export function isBitArea(area: ModbusArea): boolean {
  return area === 'coil' || area === 'discrete';
}

const NAMED = /^(coil|discrete|input|holding):(\d{1,5})(?:\.(\d{1,2}))?(?::(\d{1,3}))?$/i;
const MODICON = /^(?:(co|di|ir|hr):)?([0134])(\d{4,5})(?:\.(\d{1,2}))?(?::(\d{1,3}))?$/i;

const BY_DIGIT: Readonly<Record<string, ModbusArea>> = { '0': 'coil', '1': 'discrete', '3': 'input', '4': 'holding' };
const BY_DESIGNATOR: Readonly<Record<string, ModbusArea>> = {
  co: 'coil',
  di: 'discrete',
  ir: 'input',
  hr: 'holding',
};
const BY_NAME: Readonly<Record<string, ModbusArea>> = {
  coil: 'coil',
  discrete: 'discrete',
  input: 'input',
  holding: 'holding',
};
const DIGIT_OF: Readonly<Record<ModbusArea, string>> = { coil: '0', discrete: '1', input: '3', holding: '4' };

/** The area `key` names in `table`; the patterns above admit only the tables' keys. */
function areaIn(table: Readonly<Record<string, ModbusArea>>, key: string): ModbusArea {
  const area = table[key];
  if (area === undefined) throw new RangeError(`${JSON.stringify(key)} names no Modbus area`);
  return area;
}

/** Parses an address; throws a `RangeError` saying what is wrong and what would be right. */
export function parseModbusAddress(text: string): ModbusAddress {
  const prefixed = /^unit(\d{1,3}):(.+)$/i.exec(text);
  if (prefixed === null) return parseUnitAddress(text);
  const unit = Number(prefixed[1]);
  if (unit > 255) throw new RangeError(`${text}: a unit id goes from 0 to 255`);
  return { unit, ...parseUnitAddress(prefixed[2] ?? '') };
}

function parseUnitAddress(text: string): ModbusAddress {
  const named = NAMED.exec(text);
  if (named !== null) {
    const area = areaIn(BY_NAME, (named[1] ?? '').toLowerCase());
    const address = Number(named[2]);
    if (address > 65_535) throw new RangeError(`${text}: a protocol address goes from 0 to 65535`);
    return withSuffixes(text, area, address, named[3], named[4]);
  }
  const modicon = MODICON.exec(text);
  if (modicon !== null) {
    const [, designator, digit = '', number = ''] = modicon;
    const area = areaIn(BY_DIGIT, digit);
    const reference = Number(number);
    const max = number.length === 4 ? 9_999 : 65_536;
    if (reference < 1 || reference > max)
      throw new RangeError(`${text}: a Modicon reference counts from ${digit}${'0'.repeat(number.length - 1)}1`);
    if (designator !== undefined && BY_DESIGNATOR[designator.toLowerCase()] !== area)
      throw new RangeError(
        `${text}: ${designator.toUpperCase()}: takes a Modicon reference starting with ` +
          `${DIGIT_OF[areaIn(BY_DESIGNATOR, designator.toLowerCase())]}`,
      );
    return withSuffixes(text, area, reference - 1, modicon[4], modicon[5]);
  }
  const designator = /^(co|di|ir|hr):(\d+)/i.exec(text);
  if (designator !== null) {
    const name = (designator[1] ?? '').toUpperCase();
    const area = areaIn(BY_DESIGNATOR, name.toLowerCase());
    throw new RangeError(
      `${text}: ${name}: takes a 1-based Modicon reference (${name}:${DIGIT_OF[area]}0001); ` +
        `for the 0-based protocol address write ${area}:${designator[2]}`,
    );
  }
  throw new RangeError(
    `${JSON.stringify(text)} is not a Modbus address: write coil:N, discrete:N, input:N or holding:N ` +
      `(N the 0-based protocol address) or a Modicon reference such as 40001`,
  );
}

function withSuffixes(
  text: string,
  area: ModbusArea,
  address: number,
  bit: string | undefined,
  length: string | undefined,
): ModbusAddress {
  if (bit !== undefined && isBitArea(area))
    throw new RangeError(`${text}: a ${area} is one bit already; drop ".${bit}"`);
  if (bit !== undefined && Number(bit) > 15) throw new RangeError(`${text}: a register has bits 0 to 15`);
  if (length !== undefined && (isBitArea(area) || bit !== undefined))
    throw new RangeError(`${text}: ":${length}" (a string's length in registers) needs a register address`);
  if (length !== undefined && (Number(length) < 1 || Number(length) > 125))
    throw new RangeError(`${text}: a string spans 1 to 125 registers`);
  return {
    area,
    address,
    ...(bit === undefined ? {} : { bit: Number(bit) }),
    ...(length === undefined ? {} : { length: Number(length) }),
  };
}
