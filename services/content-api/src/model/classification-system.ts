/**
 * Names of classification systems as catalogs write them, and the one form the service keeps
 * (docs/content-api.md, "Classification systems"; decision 0032).
 */

/** The system name of features a catalog gives without a classification system. */
export const NO_CLASSIFICATION_SYSTEM = 'none';

/** The standard systems whose names are normalised, by the words catalogs write for them. */
const STANDARD_SYSTEMS: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  // `ECLASS-5.1.4`, `eCl@ss 6.1`, `ECLASS_5.1`, `eclass5.1`, `e-class-7.0`, `ECLASS-11.0 ADVANCED`.
  { name: 'ECLASS', pattern: /^e-?cl(?:a|@)ss(?:[\s_-]*v?(\d+(?:[.,]\d+)*))?(?:[\s_-]+(basic|advanced))?$/i },
  // `ETIM-7.0`, `ETIM 7.0`, `ETIM_8`, `etim8.0`.
  { name: 'ETIM', pattern: /^etim(?:[\s_-]*v?(\d+(?:[.,]\d+)*))?()$/i },
  // `UNSPSC`, `UNSPSC-7`, `UNSPSC_9.0`, `unspsc 13.5`, `UNSPSC-17.01`.
  { name: 'UNSPSC', pattern: /^unspsc(?:[\s_-]*v?(\d+(?:[.,]\d+)*))?()$/i },
];

/**
 * The kept form of a classification system's name: the standard systems (ECLASS, ETIM, UNSPSC)
 * upper case, a hyphen and the version with dots (`ECLASS-5.1`, `ETIM-7.0`, `UNSPSC-9`; without a
 * version only the system: `UNSPSC`), `ECLASS-11.0-ADVANCED` for a profile; any other name
 * (a supplier's own, `udf_Supplier-1.0`) trimmed, as written. `undefined` and `''` stay as they are.
 */
export function normalizeSystemName(name: string): string;
export function normalizeSystemName(name: string | undefined): string | undefined;
export function normalizeSystemName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // A catalog names few systems, each on every item: the answer is remembered (profiled: the
  // patterns cost more per item than the rest of its classification).
  return remembered(normalized, name, normalize);
}

function normalize(name: string): string {
  const trimmed = name.trim();
  for (const { name: system, pattern } of STANDARD_SYSTEMS) {
    const match = pattern.exec(trimmed);
    if (!match) continue;
    const version = match[1]?.replaceAll(',', '.');
    const profile = match[2]?.toUpperCase();
    return `${system}${version ? `-${version}` : ''}${profile ? `-${profile}` : ''}`;
  }
  return trimmed;
}

/** The standard system of a kept system name (`ECLASS-5.1` → `ECLASS`), undefined for any other. */
export function standardSystemOf(systemName: string): 'ECLASS' | 'ETIM' | 'UNSPSC' | undefined {
  const end = systemName.indexOf('-');
  const system = end < 0 ? systemName : systemName.slice(0, end);
  return system === 'ECLASS' || system === 'ETIM' || system === 'UNSPSC' ? system : undefined;
}

/** The major version of a kept standard system name (`UNSPSC-7.0401` → `7`), undefined without one. */
export function majorVersionOf(systemName: string): string | undefined {
  // '' stands for "no version" in the map.
  const major = remembered(majorVersions, systemName, (name) => name.split('-')[1]?.split('.', 1)[0] ?? '');
  return major === '' ? undefined : major;
}

const normalized = new Map<string, string>();
const majorVersions = new Map<string, string>();
/** Most names remembered per map: a catalog of generated system names cannot grow it without bound. */
const REMEMBERED = 1024;

function remembered(map: Map<string, string>, key: string, compute: (key: string) => string): string {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = compute(key);
  if (map.size >= REMEMBERED) map.clear();
  map.set(key, value);
  return value;
}

/**
 * A group id as kept: trimmed, and for ids of digits written with hyphens (`22-22-22-22` in
 * ECLASS and UNSPSC) without them; any other id (an ETIM class `EC000057`, an ECLASS IRDI
 * `0173-1#01-ADN228#005`) as written.
 */
export function normalizeGroupId(id: string): string {
  const trimmed = id.trim();
  return /^\d+(?:-\d+)+$/.test(trimmed) ? trimmed.replaceAll('-', '') : trimmed;
}
