/**
 * Secret variables of a device (issue 23): a variable whose `/{NAME}/` placeholder fills a driver's
 * secret key (each driver's `secretKeys`, e.g. `snmpCommunities.readCommunity: /{SNMP_READ_COMMUNITY}/`)
 * is a secret like the setting it fills. It is sealed with the device secret cipher before it is
 * stored, opened only to fill the configuration handed to a driver, and shown as "hidden" in every
 * reply. A variable used in a secret position is a secret even where it also fills another place
 * (an address): it is sealed and hidden all the same.
 *
 * A stored variable is sealed exactly when its value carries the cipher's `enc:v1:` prefix: every
 * value written with that prefix is sealed again, so the prefix never comes from a client.
 */
import { isObject } from '@triad/common';
import { mergeDriverConfig, planCollection, valueAt, type DriverRegistry } from '@triad/device-drivers';
import type { DeviceTemplate } from '@triad/device-templates';
import { SecretCipher } from '@triad/service-kit';
import { HIDDEN, type DriverSettings } from './device-secrets.js';

export type DeviceVariables = Readonly<Record<string, string>>;

const PLACEHOLDER = /\/\{([A-Za-z0-9_]+)\}\//g;

/** True when a stored variable value is sealed. */
export function isSealedVariable(value: string): boolean {
  return SecretCipher.isSealed(value);
}

/**
 * The variables that fill a secret key of one of the template's drivers, each with the drivers
 * (originTypes) it is a secret of. `drivers` are the device's settings, opened: a placeholder may
 * be written there too.
 */
export function secretVariableUses(
  template: DeviceTemplate,
  drivers: DriverSettings,
  registry: DriverRegistry,
): Map<string, Set<string>> {
  const uses = new Map<string, Set<string>>();
  for (const plan of planCollection(template)) {
    const override = drivers[plan.originType];
    const merged = mergeDriverConfig(plan.config, isObject(override) ? override : undefined);
    for (const path of registry.get(plan.originType)?.secretKeys ?? [])
      for (const name of placeholdersIn(valueAt(merged, path))) {
        const originTypes = uses.get(name) ?? new Set<string>();
        originTypes.add(plan.originType);
        uses.set(name, originTypes);
      }
  }
  return uses;
}

/**
 * For storage: every variable in `secret`, and every value that looks sealed, sealed. A value of
 * "hidden", or the very sealed value `previous` holds for that name, keeps that sealed value (a
 * "hidden" with nothing sealed behind it is an ordinary value).
 */
export function sealVariables(
  variables: DeviceVariables,
  secret: ReadonlySet<string>,
  cipher: SecretCipher,
  previous: DeviceVariables = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    const before = Object.hasOwn(previous, name) ? previous[name] : undefined;
    if ((value === HIDDEN || value === before) && before !== undefined && isSealedVariable(before)) out[name] = before;
    else out[name] = secret.has(name) || isSealedVariable(value) ? cipher.seal(value) : value;
  }
  return out;
}

/** For a driver: sealed variables opened. */
export function openVariables(variables: DeviceVariables, cipher: SecretCipher): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, isSealedVariable(value) ? cipher.open(value) : value]),
  );
}

/** For a reply: sealed variables replaced by "hidden". */
export function hideVariables(variables: DeviceVariables): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, isSealedVariable(value) ? HIDDEN : value]),
  );
}

/** The sealed variables of `previous` that `next` keeps as they are (same sealed value). */
export function keptVariables(previous: DeviceVariables, next: DeviceVariables): string[] {
  return Object.entries(previous)
    .filter(([name, value]) => isSealedVariable(value) && Object.hasOwn(next, name) && next[name] === value)
    .map(([name]) => name);
}

/** Every `/{NAME}/` name in the strings of `value`. */
function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].flatMap((match) => match[1] ?? []);
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (isObject(value)) return Object.values(value).flatMap(placeholdersIn);
  return [];
}
