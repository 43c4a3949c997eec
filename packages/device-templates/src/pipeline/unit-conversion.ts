import { createRequire } from 'node:module';
import type { UnitsConfig } from '../generated/device-template.generated.js';
import { lookupUnit } from '../semantics/unit-catalogue.js';
import { itemAt } from './item-at.js';
import type { PipelineProblemCode } from './pipeline-problems.js';

/** The part of convert-units 2.x this module calls. */
interface ConvertUnits {
  (value: number): {
    from(unit: string): {
      to(unit: string): number;
      toBest(options: { exclude: string[] }): { val: number; unit: string } | undefined;
    };
  };
  (): { describe(abbr: string): { measure: string; system: string }; possibilities(measure: string): string[] };
}

/** One unit of a convert-units definition file (`lib/definitions/<measure>.js`). */
interface UnitDefinition {
  readonly to_anchor: number;
  readonly anchor_shift?: number;
}
type MeasureDefinition = Readonly<Record<string, Readonly<Record<string, unknown>>>> & {
  readonly _anchors: Readonly<
    Record<string, { readonly ratio?: number; readonly transform?: (value: number) => number }>
  >;
};

const requireCjs = createRequire(import.meta.url);
let library: ConvertUnits | undefined;
// convert-units is CommonJS and takes ~25 ms to load: loaded on the first unitsConfig only.
function convertUnits(): ConvertUnits {
  library ??= requireCjs('convert-units') as ConvertUnits;
  return library;
}

/** Where a conversion writes its result, so the hot path allocates nothing. */
export interface UnitOutput {
  value: number;
  unit: string;
}

/** A compiled `unitsConfig`: converts a number and names the resulting unit. */
export interface UnitPlan {
  /** Converts `value`; throws the library's Error only in the (unused) fallback path. */
  readonly apply: (value: number, out: UnitOutput) => void;
  /** Whether the unit goes into results: `units: true`, or always for `toBest` (its value means nothing without it). */
  readonly showUnit: boolean;
  /** False for `{from, toBest: false}`: the value passes unchanged (and need not be a number). */
  readonly converts: boolean;
  /** `definitions`: pre-computed from the library's unit table (fast); `library`: the library is called per value. */
  readonly via: 'definitions' | 'library';
}

export interface UnitIssue {
  readonly code: PipelineProblemCode;
  readonly member: 'from' | 'to' | 'exclude';
  readonly message: string;
}

export type UnitCompileResult =
  { readonly ok: true; readonly plan: UnitPlan } | { readonly ok: false; readonly issues: readonly UnitIssue[] };

// Values every compiled conversion is checked on against the library itself (bit for bit).
const PROBES: readonly number[] = [0, 1, -1, -40, 0.1, 7.25, 100, 1234.5678, 1_048_576, 1e9, 3e-7];

/**
 * Compiles a `unitsConfig` with convert-units 2.x semantics:
 * - `from` + `to`: `convert(v).from(from).to(to)` (`to` wins when `toBest` is also present);
 * - `from` + `toBest: true`: `convert(v).from(from).toBest({exclude})`, which picks, among the
 *   units of the same measure and system not excluded, the smallest value >= 1, else the first;
 * - `from` + `toBest: false`, no `to`: no conversion.
 * Unknown units, `from`/`to` of different measures and an `exclude` that leaves toBest nothing
 * are issues. Each conversion is pre-computed from the library's unit definitions and checked
 * against the library on probe values; when they differ (another 2.x layout) it calls the
 * library on every value instead, so results always equal the library's.
 */
export function compileUnits(config: UnitsConfig): UnitCompileResult {
  const showUnit = config.units === true;
  const from = describe(config.from, 'from');
  const to = config.to !== undefined ? describe(config.to, 'to') : undefined;
  const issues: UnitIssue[] = [];
  if ('issue' in from) issues.push(from.issue);
  if (to !== undefined && 'issue' in to) issues.push(to.issue);
  if (issues.length > 0) return { ok: false, issues };
  const origin = from as Described;
  if (to !== undefined) {
    const destination = to as Described;
    if (destination.measure !== origin.measure) {
      const message =
        `unitsConfig converts from '${origin.abbr}' (${origin.measure}) to '${destination.abbr}' ` +
        `(${destination.measure}); convert-units cannot convert between measures`;
      return { ok: false, issues: [{ code: 'DT_ERR_PIPE_BUILD_UNIT_MEASURE', member: 'to', message }] };
    }
    const { convert, via } = conversion(origin, destination);
    const unit = destination.abbr;
    return {
      ok: true,
      plan: { showUnit, converts: true, via, apply: (value, out) => ((out.value = convert(value)), (out.unit = unit)) },
    };
  }
  if (config.toBest !== true) {
    return {
      ok: true,
      plan: {
        showUnit,
        converts: false,
        via: 'definitions',
        apply: (value, out) => ((out.value = value), (out.unit = origin.abbr)),
      },
    };
  }
  return compileToBest(origin, config.exclude ?? []);
}

interface Described {
  readonly abbr: string;
  readonly measure: string;
  readonly system: string;
}

function describe(abbr: string, member: 'from' | 'to'): Described | { readonly issue: UnitIssue } {
  const lookup = lookupUnit(abbr);
  if (lookup.known) {
    // The library's own lookup: the first measure holding the abbreviation wins, as in `from()`.
    const { measure, system } = convertUnits()().describe(abbr);
    return { abbr, measure, system };
  }
  const hint =
    lookup.closest.length > 0 ? `; did you mean ${lookup.closest.map((u) => `'${u.abbr}'`).join(' or ')}?` : '';
  return {
    issue: {
      code: 'DT_ERR_PIPE_BUILD_UNIT_UNKNOWN',
      member,
      message: `the unit '${abbr}' in unitsConfig.${member} is not a convert-units 2.x abbreviation${hint}`,
    },
  };
}

function compileToBest(origin: Described, exclude: readonly string[]): UnitCompileResult {
  const candidates = convertUnits()()
    .possibilities(origin.measure)
    .filter((abbr) => !exclude.includes(abbr))
    .map((abbr) => ({ abbr, system: convertUnits()().describe(abbr).system }))
    .filter((c) => c.system === origin.system);
  if (candidates.length === 0) {
    const message =
      `unitsConfig.exclude removes every unit toBest could choose for '${origin.abbr}', so no value ` +
      `would come out`;
    return { ok: false, issues: [{ code: 'DT_ERR_PIPE_BUILD_UNIT_ALL_EXCLUDED', member: 'exclude', message }] };
  }
  const units = candidates.map((c) => c.abbr);
  const converts = candidates.map(
    (c) => conversion(origin, { abbr: c.abbr, measure: origin.measure, system: c.system }).convert,
  );
  const count = converts.length;
  const apply = (value: number, out: UnitOutput): void => {
    // The library's rule: the first candidate, replaced by any later one that is >= 1 and smaller.
    let best = itemAt(converts, 0)(value);
    let bestIndex = 0;
    for (let i = 1; i < count; i++) {
      const result = itemAt(converts, i)(value);
      if (result >= 1 && result < best) {
        best = result;
        bestIndex = i;
      }
    }
    out.value = best;
    out.unit = itemAt(units, bestIndex);
  };
  const excluded = [...exclude];
  const out: UnitOutput = { value: 0, unit: '' };
  const agrees = PROBES.every((probe) => {
    const expected = convertUnits()(probe).from(origin.abbr).toBest({ exclude: excluded });
    apply(probe, out);
    return expected !== undefined && Object.is(expected.val, out.value) && expected.unit === out.unit;
  });
  if (agrees) return { ok: true, plan: { showUnit: true, converts: true, via: 'definitions', apply } };
  return {
    ok: true,
    plan: {
      showUnit: true,
      converts: true,
      via: 'library',
      apply: (value, target) => {
        const best = convertUnits()(value).from(origin.abbr).toBest({ exclude: excluded })!;
        target.value = best.val;
        target.unit = best.unit;
      },
    },
  };
}

/** `convert(v).from(origin).to(destination)` as a closure: the library's arithmetic, or the library. */
function conversion(
  origin: Described,
  destination: Described,
): { convert: (value: number) => number; via: UnitPlan['via'] } {
  if (origin.abbr === destination.abbr) return { convert: (value) => value, via: 'definitions' };
  const direct = fromDefinitions(origin, destination);
  const library = (value: number) => convertUnits()(value).from(origin.abbr).to(destination.abbr);
  if (direct !== undefined && PROBES.every((probe) => Object.is(direct(probe), library(probe))))
    return { convert: direct, via: 'definitions' };
  return { convert: library, via: 'library' };
}

// Repeats the library's `to()` step by step (same operations in the same order, hence the same
// rounding) with the numbers of its definition files, looked up once.
function fromDefinitions(origin: Described, destination: Described): ((value: number) => number) | undefined {
  let definition: MeasureDefinition;
  try {
    definition = requireCjs(`convert-units/lib/definitions/${origin.measure}`) as MeasureDefinition;
  } catch {
    return undefined;
  }
  const source = definition[origin.system]?.[origin.abbr] as UnitDefinition | undefined;
  const target = definition[destination.system]?.[destination.abbr] as UnitDefinition | undefined;
  const anchor = definition._anchors?.[origin.system];
  if (
    source === undefined ||
    target === undefined ||
    typeof source.to_anchor !== 'number' ||
    typeof target.to_anchor !== 'number'
  )
    return undefined;
  const toAnchor = source.to_anchor;
  const shiftIn = source.anchor_shift ?? 0;
  const shiftOut = target.anchor_shift ?? 0;
  const fromAnchor = target.to_anchor;
  const crossSystem = origin.system !== destination.system;
  if (crossSystem && anchor === undefined) return undefined;
  const transform = crossSystem ? anchor!.transform : undefined;
  const ratio = crossSystem && transform === undefined ? anchor!.ratio : undefined;
  if (crossSystem && transform === undefined && typeof ratio !== 'number') return undefined;
  return (value) => {
    let result = value * toAnchor;
    if (shiftIn) result -= shiftIn;
    if (transform !== undefined) result = transform(result);
    else if (ratio !== undefined) result *= ratio;
    if (shiftOut) result += shiftOut;
    return result / fromAnchor;
  };
}
