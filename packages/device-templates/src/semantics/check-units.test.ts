import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

const unitsPath = '/datapointSets/0/datapoints/2/unitsConfig';
function withUnits(unitsConfig: unknown) {
  const t = validTemplate();
  objectAt(t, 'datapointSets', 0, 'datapoints', 2).unitsConfig = unitsConfig;
  return semanticWarnings(t);
}

describe('checkUnits', () => {
  it('warns on a unit written in the wrong case and suggests the right one', () => {
    const [problem] = withCode(withUnits({ from: 'kw', to: 'W' }), 'DT_WARN_SEM_UNIT_UNKNOWN');
    expect(problem).toMatchObject({ path: `${unitsPath}/from`, found: 'kw', suggestion: 'kW' });
    expect(problem!.message).toContain("did you mean 'kW' (Kilowatt)?");
  });

  it('names both readings of an ambiguous case and suggests neither', () => {
    const [problem] = withCode(withUnits({ from: 'mw', to: 'W' }), 'DT_WARN_SEM_UNIT_UNKNOWN');
    expect(problem!.message).toContain("'mW' (Milliwatt) or 'MW' (Megawatt)");
    expect(problem!.suggestion).toBeUndefined();
  });

  it('suggests the abbreviation for a unit written in full', () => {
    const [problem] = withCode(withUnits({ from: 'celsius', to: 'F' }), 'DT_WARN_SEM_UNIT_UNKNOWN');
    expect(problem).toMatchObject({ path: `${unitsPath}/from`, suggestion: 'C' });
  });

  it('warns on from and to of different measures', () => {
    const [problem] = withCode(withUnits({ from: 'kW', to: 'kWh' }), 'DT_WARN_SEM_UNIT_MEASURE_MISMATCH');
    expect(problem).toMatchObject({ path: `${unitsPath}/to`, found: 'kWh' });
    expect(problem!.message).toContain("'kW' (power) to 'kWh' (energy)");
  });

  it('accepts known units of one measure', () => {
    const problems = withUnits({ from: 'kW', to: 'MW' });
    expect(problems).toEqual([]);
  });

  it('warns on an excluded unit of another measure and on an unknown excluded unit', () => {
    const problems = withUnits({ from: 'ms', toBest: true, exclude: ['kW', 'secs'] });
    const [measure] = withCode(problems, 'DT_WARN_SEM_UNIT_EXCLUDE_MEASURE');
    expect(measure).toMatchObject({ path: `${unitsPath}/exclude/0`, found: 'kW' });
    expect(measure!.message).toContain('toBest only chooses among time units');
    const [unknown] = withCode(problems, 'DT_WARN_SEM_UNIT_UNKNOWN');
    expect(unknown).toMatchObject({ path: `${unitsPath}/exclude/1`, suggestion: 's' });
  });

  it('warns when exclude leaves toBest no unit of the system of from', () => {
    const [problem] = withCode(
      withUnits({ from: 'A', toBest: true, exclude: ['A', 'mA', 'kA'] }),
      'DT_WARN_SEM_UNIT_ALL_EXCLUDED',
    );
    expect(problem!.path).toBe(`${unitsPath}/exclude`);
    expect(problem!.message).toContain('removes every unit toBest could choose');
  });

  it('warns on to together with toBest (quirk 7)', () => {
    const [problem] = withCode(withUnits({ from: 'C', to: 'F', toBest: true }), 'DT_WARN_QUIRK_UNITS_TO_AND_TO_BEST');
    expect(problem!.path).toBe(`${unitsPath}/toBest`);
    expect(problem!.message).toContain("both 'to' and 'toBest'");
  });

  it('leaves to + toBest + exclude to the schema, which rejects it', () => {
    const problems = withUnits({ from: 'C', to: 'F', toBest: true, exclude: ['K'] });
    expect(withCode(problems, 'DT_WARN_QUIRK_UNITS_TO_AND_TO_BEST')).toEqual([]);
    expect(withCode(problems, 'DT_WARN_QUIRK_UNITS_EXCLUDE_IGNORED')).toEqual([]);
  });

  it('warns on toBest: false without to (quirk 7)', () => {
    const [problem] = withCode(withUnits({ from: 'C', toBest: false }), 'DT_WARN_QUIRK_UNITS_NO_TARGET');
    expect(problem).toMatchObject({ path: `${unitsPath}/toBest`, suggestion: 'toBest: true' });
    expect(problem!.message).toContain('never converted');
  });

  it('warns on exclude beside a fixed to unit', () => {
    const [problem] = withCode(
      withUnits({ from: 'C', to: 'F', exclude: ['K'] }),
      'DT_WARN_QUIRK_UNITS_EXCLUDE_IGNORED',
    );
    expect(problem!.path).toBe(`${unitsPath}/exclude`);
  });

  it('accepts toBest: true with exclude of the same measure', () => {
    expect(withUnits({ from: 'ms', toBest: true, exclude: ['ns', 'mu', 'week'] })).toEqual([]);
  });
});
