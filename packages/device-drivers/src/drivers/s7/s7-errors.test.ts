import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isConnectionError, isItemError, isPasswordError, isSetupFailure, s7DriverError } from './s7-errors.js';

const ISO_RECV = 0x000a0000;
const ISO_CONNECT = 0x00010000;

describe('snap7 error codes', () => {
  it.each([
    [0x01e00000, 'authentication', 'the PLC refused the password (s7security.password)'],
    [0x01d00000, 'authentication', 'asks for a password: set s7security.password'],
    [ISO_CONNECT | constants.errno.ECONNREFUSED, 'refused', 'connection refused'],
    [ISO_RECV | constants.errno.ETIMEDOUT, 'timeout', 'no answer in time'],
    [0x02000000, 'timeout', 'no answer in time'],
    [ISO_CONNECT | constants.errno.EHOSTUNREACH, 'unreachable', 'host unreachable'],
    [ISO_CONNECT, 'protocol', 'Connection reset by peer'],
    [ISO_RECV | constants.errno.ECONNRESET, 'protocol', 'TCP : Connection reset by peer'],
  ])('maps 0x%s', (code, kind, message) => {
    const error = s7DriverError(code, 'ISO : An error occurred during recv TCP : Connection reset by peer', 'plc:102');
    expect(error).toMatchObject({ name: 'DriverError', code: kind });
    expect(error.message).toContain(message);
    expect(error.message.startsWith('plc:102: ')).toBe(true);
  });

  it('tells a broken connection from a refused item or password', () => {
    expect(isConnectionError(ISO_RECV | constants.errno.ECONNRESET)).toBe(true);
    expect(isConnectionError(0x02000000)).toBe(true);
    expect(isConnectionError(0x00c00000)).toBe(false);
    expect(isItemError(0x00c00000)).toBe(true);
    expect(isItemError(0x00900000)).toBe(true);
    expect(isItemError(0x01d00000)).toBe(false);
    expect(isPasswordError(0x01d00000)).toBe(true);
    expect(isPasswordError(0x01e00000)).toBe(true);
    expect(isPasswordError(0x00c00000)).toBe(false);
    expect(isSetupFailure(ISO_RECV | constants.errno.ETIMEDOUT)).toBe(true);
    expect(isSetupFailure(ISO_CONNECT | constants.errno.ECONNREFUSED)).toBe(false);
  });
});
