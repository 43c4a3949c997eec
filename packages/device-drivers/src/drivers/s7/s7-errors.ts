/**
 * snap7 error codes in Triad's terms. A snap7 code has three parts (s7_text.h): the client error
 * (`0xFFF00000`, e.g. "item not available"), the ISO-on-TCP error (`0x000F0000`) and the socket
 * errno (`0x0000FFFF`). A socket or ISO part means the connection is broken; a client part alone
 * is the PLC's answer to one request or item.
 */
import { constants } from 'node:os';
import { DriverError } from '../../driver-error.js';

const CLIENT_MASK = 0xfff00000;
const ISO_MASK = 0x000f0000;
const ISO_CONNECT = 0x00010000;
const TCP_MASK = 0x0000ffff;

export const NEED_PASSWORD = 0x01d00000;
export const INVALID_PASSWORD = 0x01e00000;
const JOB_TIMEOUT = 0x02000000;

/** Client errors that concern one item (the PLC refused that address), not the connection. */
const ITEM_ERRORS = new Set([
  0x00700000, // size over PDU
  0x00900000, // address out of range
  0x00a00000, // invalid transport size
  0x00c00000, // item not available (a DB the PLC does not have)
  0x01400000, // function not available
  0x02300000, // function refused
]);

/** True when the code says the connection is broken (a socket or ISO error): drop it. */
export function isConnectionError(code: number): boolean {
  return (code & (ISO_MASK | TCP_MASK)) !== 0 || (code & CLIENT_MASK) >>> 0 === JOB_TIMEOUT;
}

/** True when a connect got through TCP but failed in the ISO or S7 setup (an ISO error other than "connect"). */
export function isSetupFailure(code: number): boolean {
  const iso = code & ISO_MASK;
  return iso !== 0 && iso !== ISO_CONNECT;
}

/** True when the PLC refused one item or request because of its address or size. */
export function isItemError(code: number): boolean {
  return (code & (ISO_MASK | TCP_MASK)) === 0 && ITEM_ERRORS.has((code & CLIENT_MASK) >>> 0);
}

/** True when the PLC asks for a password or refused the one given. */
export function isPasswordError(code: number): boolean {
  const client = (code & CLIENT_MASK) >>> 0;
  return client === NEED_PASSWORD || client === INVALID_PASSWORD;
}

/** The DriverError for a snap7 code; `text` is snap7's ErrorText for it. */
export function s7DriverError(code: number, text: string, target: string): DriverError {
  const tcp = code & TCP_MASK;
  const client = (code & CLIENT_MASK) >>> 0;
  const words = text.trim().replace(/\s+/g, ' ');
  if (client === INVALID_PASSWORD)
    return new DriverError('authentication', `${target}: the PLC refused the password (s7security.password)`);
  if (client === NEED_PASSWORD)
    return new DriverError(
      'authentication',
      `${target}: the PLC is protected and asks for a password: set s7security.password`,
    );
  if (tcp === constants.errno.ECONNREFUSED) return new DriverError('refused', `${target}: connection refused`);
  if (tcp === constants.errno.ETIMEDOUT || client === JOB_TIMEOUT)
    return new DriverError('timeout', `${target}: no answer in time (${words})`);
  if (tcp === constants.errno.EHOSTUNREACH || tcp === constants.errno.ENETUNREACH)
    return new DriverError('unreachable', `${target}: host unreachable (${words})`);
  return new DriverError('protocol', `${target}: ${words || `snap7 error 0x${code.toString(16)}`}`);
}
