import { describe, expect, it } from 'vitest';
import { captureWithErl, erlOnPath } from './test-support/erl-capture.js';
import { fixtureSpecs } from './test-support/fixture-specs.js';
import { termFixtures } from './test-support/term-fixtures.js';

const required = process.env['TRIAD_REQUIRE_SERVICES'] === '1';
const haveErl = erlOnPath();

describe('fixtures against a real erl', () => {
  it('lists one fixture per spec, in the same order', () => {
    expect(termFixtures.map((f) => f.name)).toEqual(fixtureSpecs.map((s) => s.name));
  });

  it.skipIf(!haveErl && !required)(
    'regenerating the fixtures with erl changes no stable bytes (skipped without erl: install erlang-base)',
    () => {
      if (!haveErl) throw new Error('erl is not on PATH but TRIAD_REQUIRE_SERVICES=1: install erlang-base');
      const capture = captureWithErl(fixtureSpecs);
      for (const f of termFixtures) {
        const now = capture.results.get(f.name);
        if (f.source === 'hand-written') expect(now, f.name).toBe('true');
        else if (!f.volatile) expect(now, f.name).toBe(f.hex);
      }
    },
  );
});

if (!haveErl && !required) console.warn('erl-capture.test.ts: erl not found, re-capture skipped (install erlang-base)');
