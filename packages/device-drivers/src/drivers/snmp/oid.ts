/**
 * Object identifiers as the SNMP driver handles them: dotted decimal strings without a leading
 * dot (`1.3.6.1.2.1.1.1.0`), compared component by component.
 */

/** Turns an address (an OID or a MIB name) into a dotted decimal OID; `undefined` when it names none. */
export type OidResolver = (address: string) => string | undefined;

const OID_PATTERN = /^\d+(\.\d+)*$/;

/** `.1.3.6.1` and ` 1.3.6.1 ` become `1.3.6.1`; anything that is not a dotted decimal OID is `undefined`. */
export function normalizeOid(text: string): string | undefined {
  const trimmed = text.trim().replace(/^\./, '');
  return OID_PATTERN.test(trimmed) ? trimmed : undefined;
}

/** True when `oid` lies strictly below `prefix` (`1.3.6.1.2` is below `1.3.6.1`, `1.3.6.10` is not). */
export function isBelow(prefix: string, oid: string): boolean {
  return oid.length > prefix.length && oid.startsWith(prefix) && oid.charCodeAt(prefix.length) === 46;
}

/** The components of `oid` after `prefix` (which `oid` must be below), e.g. `'1.4.127.0.0.1'`. */
export function suffixAfter(prefix: string, oid: string): string {
  return oid.slice(prefix.length + 1);
}

/** Lexicographic OID order: negative when `a` comes first, as an agent walks them. */
export function compareOids(a: string, b: string): number {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const difference = Number(x[i]) - Number(y[i]);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}
