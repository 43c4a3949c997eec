/**
 * Secrets stay with their target (issue 23): a stored community or password was given for one
 * place, so a change of where a driver connects must come with the secret again. The target of a
 * driver is its whole effective configuration (the template's entry, the device's settings and
 * variables filled in) minus its `secretKeys` and `tuningKeys`: an address, a port, a broker URL,
 * TLS settings, an SNMP version, and any key a driver does not know, all count.
 */
import { isObject } from '@triad/common';
import { valueAt, type DriverRegistry, type PreparedDevice } from '@triad/device-drivers';
import type { DriverSettings } from './device-secrets.js';

/** A stored secret, by driver and dot path. */
export interface SecretPlace {
  readonly originType: string;
  readonly path: string;
}

/** The stored secrets of `previous` that `next` keeps as they are (same sealed value). */
export function keptSecrets(previous: DriverSettings, next: DriverSettings, registry: DriverRegistry): SecretPlace[] {
  const kept: SecretPlace[] = [];
  for (const [originType, settings] of Object.entries(previous))
    for (const path of registry.get(originType)?.secretKeys ?? []) {
      const before = valueAt(settings, path);
      if (typeof before === 'string' && before !== '' && valueAt(next[originType] ?? {}, path) === before)
        kept.push({ originType, path });
    }
  return kept;
}

/**
 * The secrets of `kept` whose driver's target differs between `before` and `after` (a driver
 * missing on either side, or a device that could not be prepared, counts as a change).
 */
export function secretsForNewTargets(
  kept: readonly SecretPlace[],
  before: PreparedDevice | undefined,
  after: PreparedDevice,
  registry: DriverRegistry,
): SecretPlace[] {
  return kept.filter(({ originType }) => targetChanged(originType, before, after, registry));
}

/** Whether the target of driver `originType` differs between `before` and `after` (see above). */
export function targetChanged(
  originType: string,
  before: PreparedDevice | undefined,
  after: PreparedDevice,
  registry: DriverRegistry,
): boolean {
  const targetIn = (prepared: PreparedDevice | undefined): string | undefined => {
    const entry = prepared?.drivers.find((driver) => driver.plan.originType === originType);
    return entry === undefined ? undefined : targetOf(entry.config, originType, registry);
  };
  const was = targetIn(before);
  return was === undefined || was !== targetIn(after);
}

/** A driver's target as canonical JSON: its configuration without secret and tuning keys. */
export function targetOf(
  config: Readonly<Record<string, unknown>>,
  originType: string,
  registry: DriverRegistry,
): string {
  const factory = registry.get(originType);
  const copy = structuredClone<Record<string, unknown>>(config);
  for (const path of [...(factory?.secretKeys ?? []), ...(factory?.tuningKeys ?? [])]) remove(copy, path);
  // The driver counts too: the same settings under another driver go elsewhere.
  return canonical({ driver: factory?.originType ?? originType, config: copy });
}

function remove(value: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  let parent: unknown = value;
  for (const key of keys.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
  const last = keys.at(-1);
  if (last !== undefined && isObject(parent)) delete parent[last];
}

/** JSON with object keys sorted, so that key order never counts as a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
