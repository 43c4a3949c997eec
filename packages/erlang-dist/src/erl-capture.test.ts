import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captureWithErl, erlOnPath } from './test-support/erl-capture.js';
import { fixtureSpecs } from './test-support/fixture-specs.js';
import { renderTermFixtures, TERM_FIXTURES_FILE } from './test-support/render-term-fixtures.js';
import { CAPTURED_OTP_RELEASE, termFixtures } from './test-support/term-fixtures.generated.js';

const required = process.env['TRIAD_REQUIRE_SERVICES'] === '1';
const haveErl = erlOnPath();

describe('fixtures against a real erl', () => {
  it('lists one fixture per spec, in the same order', () => {
    expect(termFixtures.map((f) => f.name)).toEqual(fixtureSpecs.map((s) => s.name));
  });

  it('holds exactly the text the generator writes for its recorded bytes (nobody edited it by hand)', () => {
    const recorded = new Map(termFixtures.map((f) => [f.name, f.hex]));
    const file = readFileSync(new URL(`../${TERM_FIXTURES_FILE}`, import.meta.url), 'utf8');
    expect(renderTermFixtures(fixtureSpecs, recorded, CAPTURED_OTP_RELEASE)).toBe(file);
  });

  it.skipIf(!haveErl && !required)(
    'regenerating the fixtures with erl changes no stable bytes (skipped without erl: install erlang-base)',
    () => {
      if (!haveErl) throw new Error('erl is not on PATH but TRIAD_REQUIRE_SERVICES=1: install erlang-base');
      const capture = captureWithErl(fixtureSpecs);
      for (const f of termFixtures) {
        if (!f.volatile) expect(capture.hexByName.get(f.name), f.name).toBe(f.hex);
      }
    },
  );
});

if (!haveErl && !required) console.warn('erl-capture.test.ts: erl not found, re-capture skipped (install erlang-base)');
