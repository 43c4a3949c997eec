/**
 * Why a driver could not read a device, in words an operator acts on. The code is stable (it is
 * the device's `lastError.code`); the message says what happened and, where it helps, what to do.
 */
export type DriverErrorCode =
  | 'timeout'
  | 'refused'
  | 'unreachable'
  | 'authentication'
  | 'protocol'
  | 'configuration'
  | 'unsupported'
  /** The device address policy refuses the address (address-policy.ts); nothing was sent. */
  | 'forbidden';

export class DriverError extends Error {
  readonly code: DriverErrorCode;

  constructor(code: DriverErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DriverError';
    this.code = code;
  }
}

/** Turns what a socket or library threw into a `DriverError` with the right code. */
export function toDriverError(error: unknown, what: string): DriverError {
  if (error instanceof DriverError) return error;
  const err = error as { code?: unknown; message?: unknown; name?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : String(error);
  if (code === 'ECONNREFUSED') return new DriverError('refused', `${what}: connection refused`, { cause: error });
  if (code === 'ETIMEDOUT' || /time(d)? ?out/i.test(message) || err?.name === 'RequestTimedOutError')
    return new DriverError('timeout', `${what}: no answer in time`, { cause: error });
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new DriverError('unreachable', `${what}: ${code === 'ENOTFOUND' ? 'unknown host' : 'host unreachable'}`, {
      cause: error,
    });
  return new DriverError('protocol', `${what}: ${message}`, { cause: error });
}
