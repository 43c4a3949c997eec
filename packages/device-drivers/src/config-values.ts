/**
 * Reading a driver's configuration: typed values at dot paths with defaults, and a clear
 * `configuration` error naming the key when a value has the wrong type or range.
 */
import { isObject } from '@triad/common';
import { DriverError } from './driver-error.js';
import { hasPlaceholder } from './substitute-variables.js';

export function valueAt(config: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = config;
  for (const key of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

export function numberAt(
  config: Readonly<Record<string, unknown>>,
  path: string,
  fallback: number,
  range: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const raw = valueAt(config, path);
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  const { min = -Infinity, max = Infinity, integer = false } = range;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  )
    throw new DriverError(
      'configuration',
      `${path} must be ${integer ? 'an integer' : 'a number'}${rangeText(min, max)}; it is ${JSON.stringify(raw)}`,
    );
  return value;
}

export function stringAt(config: Readonly<Record<string, unknown>>, path: string, fallback?: string): string {
  const raw = valueAt(config, path);
  if (raw === undefined || raw === null) {
    if (fallback !== undefined) return fallback;
    throw new DriverError('configuration', `${path} is required`);
  }
  if (typeof raw !== 'string' && typeof raw !== 'number')
    throw new DriverError('configuration', `${path} must be a string; it is ${JSON.stringify(raw)}`);
  return String(raw);
}

export function booleanAt(config: Readonly<Record<string, unknown>>, path: string, fallback: boolean): boolean {
  const raw = valueAt(config, path);
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== 'boolean') throw new DriverError('configuration', `${path} must be true or false`);
  return raw;
}

/** Collects the configuration errors `read` throws, for a factory's `check`. */
export function configProblems(read: () => void): string[] {
  try {
    read();
    return [];
  } catch (error) {
    if (error instanceof DriverError) return [error.message];
    throw error;
  }
}

/** Fails when a filled-in value still holds a `/{NAME}/` placeholder. */
export function assertFilled(path: string, value: string): string {
  if (hasPlaceholder(value))
    throw new DriverError(
      'configuration',
      `${path} still holds the placeholder ${value}: give the device that variable`,
    );
  return value;
}

/**
 * A device's host at `path`: filled in (no placeholder left), a host name or an IP address (IPv4
 * only with `ipv6: false`), never starting with `-` (it may reach a command line). `trim` removes
 * surrounding spaces first.
 */
export function hostAt(
  config: Readonly<Record<string, unknown>>,
  path: string,
  options: { readonly ipv6?: boolean; readonly trim?: boolean } = {},
): string {
  const raw = stringAt(config, path);
  const host = assertFilled(path, options.trim ? raw.trim() : raw);
  const ipv6 = options.ipv6 ?? true;
  const pattern = ipv6 ? /^[A-Za-z0-9.:-]{1,253}$/ : /^[A-Za-z0-9.-]{1,253}$/;
  if (!pattern.test(host) || host.startsWith('-'))
    throw new DriverError(
      'configuration',
      `${path} must be a host name or an ${ipv6 ? 'IP' : 'IPv4'} address; it is ${JSON.stringify(host)}`,
    );
  return host;
}

function rangeText(min: number, max: number): string {
  if (min !== -Infinity && max !== Infinity) return ` from ${min} to ${max}`;
  if (min !== -Infinity) return ` of at least ${min}`;
  if (max !== Infinity) return ` of at most ${max}`;
  return '';
}
