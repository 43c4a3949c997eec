import type { RangerFilter } from '../model/template-record.js';
import type { CompiledPattern } from './pattern-cache.js';

/** What a discovery component knows about a device. */
export interface DiscoveredDevice {
  /** Fieldbus device identification, hex text (e.g. `0x0A01`). */
  readonly deviceID?: string;
  /** Fieldbus manufacturer identification, hex text (e.g. `0x002A`). */
  readonly vendorID?: string;
  /** SNMP sysDescr. */
  readonly description?: string;
}

const FIELDS = ['deviceID', 'vendorID', 'description'] as const;

/**
 * True when the filter accepts the device: the filter declares at least one field, and for every
 * declared field the device sent that field and the field's pattern finds a match in it
 * (unanchored search, as JavaScript's `RegExp.prototype.test`). A pattern `compile` cannot
 * compile fails the match. Fields the filter does not declare are ignored.
 */
export function filterAcceptsDevice(
  filter: RangerFilter | null,
  device: DiscoveredDevice,
  compile: (pattern: string) => CompiledPattern | undefined,
): boolean {
  if (!filter) return false;
  let declared = 0;
  for (const field of FIELDS) {
    const pattern = filter[field];
    if (pattern === undefined) continue;
    declared++;
    const value = device[field];
    if (value === undefined) return false;
    const compiled = compile(pattern);
    if (!compiled || !compiled.test(value)) return false;
  }
  return declared > 0;
}
