/**
 * Driver secrets of a device (communities, passwords): sealed before they are stored, opened only
 * to hand them to a driver, and shown as "hidden" in every reply. Which keys are secrets is each
 * driver's `secretKeys` list.
 */
import { isObject } from '@triad/common';
import { valueAt, type DriverRegistry } from '@triad/device-drivers';
import type { SecretCipher, SecretPurpose } from '@triad/service-kit';

export type DriverSettings = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** What replaces a secret in replies, and what a client sends back to keep the stored one. */
export const HIDDEN = 'hidden';

export const DEVICE_SECRET: SecretPurpose = Object.freeze({
  aad: 'triad-templates:device-driver-secret',
  what: 'device credential',
});

/** `drivers` with every non-empty secret string changed by `change`. */
function mapSecrets(
  drivers: DriverSettings,
  registry: DriverRegistry,
  change: (value: string, originType: string, path: string) => unknown,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [originType, settings] of Object.entries(drivers)) {
    const copy = structuredClone<Record<string, unknown>>(settings);
    for (const path of registry.get(originType)?.secretKeys ?? []) {
      const keys = path.split('.');
      let parent: unknown = copy;
      for (const key of keys.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
      const last = keys.at(-1);
      if (last !== undefined && isObject(parent) && typeof parent[last] === 'string' && parent[last] !== '')
        parent[last] = change(parent[last], originType, path);
    }
    out[originType] = copy;
  }
  return out;
}

/** For storage: secrets sealed. A value of "hidden" keeps the secret `previous` holds at that place. */
export function sealSecrets(
  drivers: DriverSettings,
  registry: DriverRegistry,
  cipher: SecretCipher,
  previous: DriverSettings = {},
): Record<string, Record<string, unknown>> {
  return mapSecrets(drivers, registry, (value, originType, path) => {
    return value !== HIDDEN ? cipher.seal(value) : valueAt(previous[originType] ?? {}, path);
  });
}

/**
 * Where `drivers` says "hidden" (keep the stored secret) but `previous` stores none at that place:
 * `{originType, path}` of each. Such a request would silently drop the secret it means to keep.
 */
export function hiddenWithoutSecret(
  drivers: DriverSettings,
  registry: DriverRegistry,
  previous: DriverSettings = {},
): { originType: string; path: string }[] {
  const missing: { originType: string; path: string }[] = [];
  mapSecrets(drivers, registry, (value, originType, path) => {
    const kept = valueAt(previous[originType] ?? {}, path);
    if (value === HIDDEN && (typeof kept !== 'string' || kept === '')) missing.push({ originType, path });
    return value;
  });
  return missing;
}

/** For a driver: secrets opened. */
export function openSecrets(drivers: DriverSettings, registry: DriverRegistry, cipher: SecretCipher): DriverSettings {
  return mapSecrets(drivers, registry, (value) => cipher.open(value));
}

/** For a reply: secrets replaced by "hidden". */
export function hideSecrets(drivers: DriverSettings, registry: DriverRegistry): DriverSettings {
  return mapSecrets(drivers, registry, () => HIDDEN);
}
