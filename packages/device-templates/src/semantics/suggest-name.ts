import { editDistance, suggestKey } from '../schema/suggest-key.js';

/**
 * Suggests the declared name (driver, set, datapoint, symbol) a person most likely meant.
 * Like `suggestKey`, but never more than `maxEdits` edits away: names such as
 * `netin-ds-drv-s7` and `netin-ds-drv-snmp` share long prefixes and differ in the part that
 * matters, so a distance budget that grows with the length would pair real, different names.
 */
export function suggestName(found: string, candidates: readonly string[], maxEdits = 2): string | undefined {
  const suggestion = suggestKey(found, candidates);
  if (suggestion === undefined) return undefined;
  return editDistance(found.toLowerCase(), suggestion.toLowerCase()) <= maxEdits ? suggestion : undefined;
}
