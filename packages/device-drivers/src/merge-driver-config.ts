import { isObject } from '@triad/common';

/**
 * The device's own settings for a driver merged over the template's: objects merge key by key
 * (so `{snmpCommunities: {readCommunity: 'x'}}` keeps the template's `writeCommunity`), anything
 * else replaces. `originType` is never taken from the override.
 */
export function mergeDriverConfig(
  base: Readonly<Record<string, unknown>>,
  override: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  if (override === undefined) return merged;
  for (const [key, value] of Object.entries(override)) {
    if (key === 'originType' || key === '__proto__') continue;
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? mergeDriverConfig(current, value) : value;
  }
  return merged;
}
