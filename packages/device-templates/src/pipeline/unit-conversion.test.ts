import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compileUnits, type UnitOutput, type UnitPlan } from './unit-conversion.js';

const library = createRequire(import.meta.url)('convert-units') as (value: number) => {
  from(unit: string): {
    to(unit: string): number;
    toBest(options: { exclude: string[] }): { val: number; unit: string } | undefined;
  };
};

function plan(config: Parameters<typeof compileUnits>[0]): UnitPlan {
  const result = compileUnits(config);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.plan;
}

function run(unitPlan: UnitPlan, value: number): UnitOutput {
  const out = { value: 0, unit: '' };
  unitPlan.apply(value, out);
  return out;
}

const samples = [0, 1, -3.5, 0.001, 42, 1536, 98.6, 1e6 + 0.25, 123_456_789];

describe('compileUnits from/to', () => {
  const pairs: [string, string][] = [
    ['B', 'MB'],
    ['b', 'Kb'],
    ['C', 'F'],
    ['F', 'K'],
    ['m', 'ft'],
    ['km/h', 'm/s'],
    ['ms', 'min'],
    ['kWh', 'J'],
    ['psi', 'kPa'],
  ];
  it.each(pairs)('gives exactly what convert-units gives for %s -> %s', (from, to) => {
    const unitPlan = plan({ from, to });
    for (const value of samples) {
      const out = run(unitPlan, value);
      expect(out.value).toBe(library(value).from(from).to(to));
      expect(out.unit).toBe(to);
    }
  });

  it('pre-computes every one of these conversions instead of calling the library per value', () => {
    for (const [from, to] of pairs) expect(plan({ from, to }).via).toBe('definitions');
    expect(plan({ from: 'B', toBest: true, exclude: ['KB'] }).via).toBe('definitions');
  });

  it('passes the value through when from and to are the same unit', () => {
    expect(run(plan({ from: 'MB', to: 'MB' }), 0.1).value).toBe(0.1);
  });

  it('shows the unit only when units is true', () => {
    expect(plan({ from: 'B', to: 'KB' }).showUnit).toBe(false);
    expect(plan({ from: 'B', to: 'KB', units: true }).showUnit).toBe(true);
  });

  it('lets to win over toBest when both are present', () => {
    expect(run(plan({ from: 'B', to: 'KB', toBest: true }), 2048)).toEqual({ value: 2, unit: 'KB' });
  });
});

describe('compileUnits toBest', () => {
  it('picks the same unit as convert-units, with and without exclude', () => {
    for (const exclude of [[], ['KB'], ['GB', 'TB'], ['B']]) {
      const unitPlan = plan({ from: 'B', toBest: true, exclude });
      for (const value of [...samples, 5e9, 3e12]) {
        const expected = library(value).from('B').toBest({ exclude })!;
        expect(run(unitPlan, value)).toEqual({ value: expected.val, unit: expected.unit });
      }
    }
  });

  it('chooses the largest unit that keeps the value at least 1, skipping excluded units', () => {
    expect(run(plan({ from: 'B', toBest: true }), 3 * 1024 * 1024)).toEqual({ value: 3, unit: 'MB' });
    expect(run(plan({ from: 'B', toBest: true, exclude: ['MB'] }), 3 * 1024 * 1024)).toEqual({
      value: 3072,
      unit: 'KB',
    });
  });

  it('stays within the system of from (metric length never becomes feet)', () => {
    expect(run(plan({ from: 'm', toBest: true }), 2500)).toEqual({ value: 2.5, unit: 'km' });
  });

  it('always shows the unit it chose', () => {
    expect(plan({ from: 's', toBest: true }).showUnit).toBe(true);
  });

  it('does not convert with toBest false and no to', () => {
    const unitPlan = plan({ from: 'C', toBest: false, units: true });
    expect(unitPlan.converts).toBe(false);
    expect(run(unitPlan, 21.5)).toEqual({ value: 21.5, unit: 'C' });
  });
});

describe('compileUnits issues', () => {
  it('rejects an unknown unit and suggests the likely one', () => {
    const result = compileUnits({ from: 'kw', to: 'W' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'DT_ERR_PIPE_BUILD_UNIT_UNKNOWN', member: 'from' }),
    ]);
    expect(result.issues[0]!.message).toContain("'kW'");
  });

  it('reports both units when from and to are unknown', () => {
    const result = compileUnits({ from: 'watts', to: 'kilowatts' });
    expect(result.ok ? [] : result.issues.map((i) => i.member)).toEqual(['from', 'to']);
  });

  it('rejects units of different measures', () => {
    const result = compileUnits({ from: 'B', to: 'ms' });
    expect(result.ok ? undefined : result.issues[0]!.code).toBe('DT_ERR_PIPE_BUILD_UNIT_MEASURE');
  });

  it('rejects an exclude list that leaves toBest nothing', () => {
    const result = compileUnits({ from: 'C', toBest: true, exclude: ['C', 'K'] });
    expect(result.ok ? undefined : result.issues[0]).toMatchObject({
      code: 'DT_ERR_PIPE_BUILD_UNIT_ALL_EXCLUDED',
      member: 'exclude',
    });
  });
});
