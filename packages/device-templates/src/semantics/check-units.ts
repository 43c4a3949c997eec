import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { lookupUnit, toBestCandidates, type UnitInfo } from './unit-catalogue.js';

/**
 * Checks `unitsConfig` against convert-units 2.x: `from`, `to` and `exclude` must be unit
 * abbreviations it knows (case matters), `from` and `to` of the same measure, excluded units of
 * the measure of `from`, and `exclude` must leave toBest a unit. Also flags the combinations the
 * schema lets through but that make no sense: `to` with `toBest`, `toBest: false` without `to`,
 * and `exclude` without `toBest: true`.
 */
export const checkUnits: SemanticCheck = (model, reporter) => {
  for (const datapoint of model.datapoints) {
    const units = datapoint.value['unitsConfig'];
    if (!isObject(units)) continue;
    const datapointPath = datapoint.path;
    const from = checkUnit(units['from'], datapointPath, 'from', reporter);
    const to = checkUnit(units['to'], datapointPath, 'to', reporter);
    if (from !== undefined && to !== undefined && from.measure !== to.measure) {
      reporter.report('DT_WARN_SEM_UNIT_MEASURE_MISMATCH', at(datapointPath, 'to'), {
        message:
          `unitsConfig converts from '${from.abbr}' (${from.measure}) to '${to.abbr}' (${to.measure}); ` +
          `convert-units cannot convert between measures, so pick a ${from.measure} unit for 'to'.`,
        found: to.abbr,
        allowed: `a ${from.measure} unit`,
      });
    }
    const exclude = units['exclude'];
    const excluded = Array.isArray(exclude) ? checkExclude(exclude, datapointPath, from, reporter) : [];
    checkCombination(units, datapointPath, from, excluded, reporter);
  }
};

// The path of a unitsConfig member, built only when there is something to report.
function at(datapointPath: DocumentPath, ...tail: (string | number)[]): DocumentPath {
  return [...datapointPath, 'unitsConfig', ...tail];
}

function checkUnit(
  value: unknown,
  datapointPath: DocumentPath,
  role: 'from' | 'to',
  reporter: SemanticReporter,
): UnitInfo | undefined {
  if (typeof value !== 'string') return undefined;
  const lookup = lookupUnit(value);
  if (lookup.known) return lookup.unit;
  reportUnknownUnit(value, lookup.closest, at(datapointPath, role), `unitsConfig.${role}`, reporter);
  return undefined;
}

function reportUnknownUnit(
  value: string,
  closest: readonly UnitInfo[],
  problemPath: DocumentPath,
  subject: string,
  reporter: SemanticReporter,
): void {
  const hint =
    closest.length > 0
      ? `; did you mean ${closest.map((u) => `'${u.abbr}' (${u.singular})`).join(' or ')}?`
      : '; write a convert-units 2.x abbreviation such as kW, C (Celsius) or km/h.';
  reporter.report('DT_WARN_SEM_UNIT_UNKNOWN', problemPath, {
    message:
      `The unit '${value}' in ${subject} is not one convert-units 2.x knows (abbreviations are ` +
      `case-sensitive)${hint}`,
    found: value,
    allowed: 'a unit abbreviation of convert-units 2.x',
    ...(closest.length === 1 ? { suggestion: closest[0]!.abbr } : {}),
  });
}

function checkExclude(
  exclude: readonly unknown[],
  datapointPath: DocumentPath,
  from: UnitInfo | undefined,
  reporter: SemanticReporter,
): UnitInfo[] {
  const excluded: UnitInfo[] = [];
  for (let i = 0; i < exclude.length; i++) {
    const value: unknown = exclude[i];
    if (typeof value !== 'string') continue;
    const lookup = lookupUnit(value);
    if (!lookup.known) {
      reportUnknownUnit(value, lookup.closest, at(datapointPath, 'exclude', i), 'unitsConfig.exclude', reporter);
      continue;
    }
    excluded.push(lookup.unit);
    if (from !== undefined && lookup.unit.measure !== from.measure) {
      reporter.report('DT_WARN_SEM_UNIT_EXCLUDE_MEASURE', at(datapointPath, 'exclude', i), {
        message:
          `The excluded unit '${value}' is a ${lookup.unit.measure} unit, but toBest only chooses among ` +
          `${from.measure} units of '${from.abbr}'; excluding it has no effect.`,
        found: value,
        allowed: `a ${from.measure} unit`,
      });
    }
  }
  return excluded;
}

function checkCombination(
  units: Readonly<Record<string, unknown>>,
  datapointPath: DocumentPath,
  from: UnitInfo | undefined,
  excluded: readonly UnitInfo[],
  reporter: SemanticReporter,
): void {
  const hasTo = units['to'] !== undefined;
  const toBest = units['toBest'];
  const hasExclude = units['exclude'] !== undefined;
  // `to` + `toBest` + `exclude` fails the schema's anyOf: that is an error already.
  if (hasTo && toBest !== undefined && hasExclude) return;
  if (hasTo && toBest !== undefined) {
    reporter.report('DT_WARN_QUIRK_UNITS_TO_AND_TO_BEST', at(datapointPath, 'toBest'), {
      at: 'key',
      message:
        "unitsConfig has both 'to' and 'toBest'; they are alternative conversions (a fixed unit, or the " +
        "best-fitting unit), so remove 'toBest' to convert to the 'to' unit, or remove 'to'.",
      found: { to: units['to'], toBest },
      suggestion: 'remove toBest',
    });
    return;
  }
  if (!hasTo && toBest === false) {
    reporter.report('DT_WARN_QUIRK_UNITS_NO_TARGET', at(datapointPath, 'toBest'), {
      message:
        "unitsConfig has 'toBest: false' and no 'to', so the value is never converted; set 'toBest: true' " +
        "or give a 'to' unit.",
      found: false,
      suggestion: 'toBest: true',
    });
    return;
  }
  if (hasExclude && toBest !== true) {
    reporter.report('DT_WARN_QUIRK_UNITS_EXCLUDE_IGNORED', at(datapointPath, 'exclude'), {
      at: 'key',
      message:
        "unitsConfig.exclude only narrows the choice of 'toBest: true'; with a fixed 'to' unit it is ignored, so " +
        'remove it.',
      suggestion: 'remove exclude',
    });
    return;
  }
  if (toBest === true && from !== undefined && excluded.length > 0) {
    const candidates = toBestCandidates(from);
    const excludedAbbrs = new Set(excluded.map((u) => u.abbr));
    if (candidates.every((u) => excludedAbbrs.has(u.abbr))) {
      reporter.report('DT_WARN_SEM_UNIT_ALL_EXCLUDED', at(datapointPath, 'exclude'), {
        message:
          `exclude removes every unit toBest could choose for '${from.abbr}' ` +
          `(${candidates.map((u) => u.abbr).join(', ')}), so the conversion yields no value; keep at least one.`,
        allowed: `at least one of ${candidates.map((u) => u.abbr).join(', ')} left out of exclude`,
      });
    }
  }
}
