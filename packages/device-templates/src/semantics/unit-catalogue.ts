import { createRequire } from 'node:module';
import { editDistance } from '../schema/suggest-key.js';

/** The part of convert-units 2.x this module calls. */
interface ConvertUnits {
  (): { list(): readonly { abbr: string; measure: string; system: string; singular: string; plural: string }[] };
}

// convert-units takes ~25 ms to load, so it is required on first use (it is CommonJS) rather
// than imported with the package: templates without unitsConfig never pay for it.
function loadConvertUnits(): ConvertUnits {
  return createRequire(import.meta.url)('convert-units') as ConvertUnits;
}

/** What convert-units 2.x knows about one unit abbreviation. */
export interface UnitInfo {
  readonly abbr: string;
  readonly measure: string;
  /** `metric`, `imperial`, `bits` or `bytes`: toBest only picks units of the same system. */
  readonly system: string;
  readonly singular: string;
}

/** The outcome of looking a unit up: the unit, or the closest abbreviations when it is unknown. */
export type UnitLookup =
  { readonly known: true; readonly unit: UnitInfo } | { readonly known: false; readonly closest: readonly UnitInfo[] };

interface Catalogue {
  readonly byAbbr: ReadonlyMap<string, UnitInfo>;
  readonly byLowerAbbr: ReadonlyMap<string, readonly UnitInfo[]>;
  readonly byName: ReadonlyMap<string, UnitInfo>;
  readonly all: readonly UnitInfo[];
}

// Spellings people write for units whose convert-units name or abbreviation differs.
const ALIASES: Readonly<Record<string, string>> = {
  celsius: 'C',
  degc: 'C',
  fahrenheit: 'F',
  degf: 'F',
  kelvin: 'K',
  sec: 's',
  secs: 's',
  hr: 'h',
  hrs: 'h',
  kmh: 'km/h',
  kph: 'km/h',
  mph: 'm/h',
};

let catalogue: Catalogue | undefined;
const lookups = new Map<string, UnitLookup>();
const MAX_CACHED_LOOKUPS = 1024;

// Built on first use from convert-units itself, so the list always matches the installed 2.x.
function getCatalogue(): Catalogue {
  if (catalogue !== undefined) return catalogue;
  const byAbbr = new Map<string, UnitInfo>();
  const byLowerAbbr = new Map<string, UnitInfo[]>();
  const byName = new Map<string, UnitInfo>();
  const all: UnitInfo[] = [];
  for (const entry of loadConvertUnits()().list()) {
    const unit: UnitInfo = { abbr: entry.abbr, measure: entry.measure, system: entry.system, singular: entry.singular };
    all.push(unit);
    byAbbr.set(unit.abbr, unit);
    const lower = unit.abbr.toLowerCase();
    byLowerAbbr.set(lower, [...(byLowerAbbr.get(lower) ?? []), unit]);
    for (const name of [entry.singular, entry.plural]) {
      const key = name.toLowerCase();
      if (!byName.has(key)) byName.set(key, unit);
    }
  }
  catalogue = { byAbbr, byLowerAbbr, byName, all };
  return catalogue;
}

/**
 * Looks a unit abbreviation up in convert-units 2.x (case-sensitive, as the library is).
 * For an unknown unit, `closest` holds what the author probably meant, best first: abbreviations
 * that differ only in case (`kw` -> `kW`; `mw` -> `mW`, `MW`), the unit named in full
 * (`kilowatts` -> `kW`, `°C` -> `C`), or abbreviations one or two edits away. Results are cached.
 */
export function lookupUnit(abbr: string): UnitLookup {
  const cached = lookups.get(abbr);
  if (cached !== undefined) return cached;
  const result = computeLookup(abbr);
  if (lookups.size >= MAX_CACHED_LOOKUPS) lookups.clear();
  lookups.set(abbr, result);
  return result;
}

function computeLookup(abbr: string): UnitLookup {
  const { byAbbr, byLowerAbbr, byName, all } = getCatalogue();
  const unit = byAbbr.get(abbr);
  if (unit !== undefined) return { known: true, unit };
  const trimmed = abbr.trim().replace(/^[°º]\s*/, '');
  if (trimmed !== abbr && byAbbr.has(trimmed)) return { known: false, closest: [byAbbr.get(trimmed)!] };
  const lower = trimmed.toLowerCase();
  const sameLetters = byLowerAbbr.get(lower);
  if (sameLetters !== undefined) return { known: false, closest: sameLetters };
  const bareName = lower.replace(/^degrees?\s+/, '');
  const alias = Object.hasOwn(ALIASES, bareName) ? ALIASES[bareName] : undefined;
  const named = byName.get(lower) ?? byName.get(bareName) ?? (alias !== undefined ? byAbbr.get(alias) : undefined);
  if (named !== undefined) return { known: false, closest: [named] };
  if (lower.length < 2) return { known: false, closest: [] };
  const budget = lower.length <= 3 ? 1 : 2;
  let best: UnitInfo[] = [];
  let bestDistance = budget + 1;
  for (const candidate of all) {
    const distance = editDistance(lower, candidate.abbr.toLowerCase());
    if (distance < bestDistance) {
      best = [candidate];
      bestDistance = distance;
    } else if (distance === bestDistance && distance <= budget) {
      best.push(candidate);
    }
  }
  return { known: false, closest: best.slice(0, 3) };
}

const candidatesByUnit = new Map<string, readonly UnitInfo[]>();

/** The units toBest may choose for `from`: same measure and same system (cached). */
export function toBestCandidates(from: UnitInfo): readonly UnitInfo[] {
  let candidates = candidatesByUnit.get(from.abbr);
  if (candidates === undefined) {
    candidates = getCatalogue().all.filter((u) => u.measure === from.measure && u.system === from.system);
    candidatesByUnit.set(from.abbr, candidates);
  }
  return candidates;
}
