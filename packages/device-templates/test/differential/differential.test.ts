import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIFFERENTIAL_RUN, VERDICTS_FILE, differentialFixtures } from './differential-fixtures.js';
import { mutateFixtures } from './mutate-template.js';
import { triadVerdict } from './triad-verdict.js';

interface PublishedVerdict {
  readonly id: string;
  readonly published: boolean;
}

const verdicts: PublishedVerdict[] = readFileSync(VERDICTS_FILE, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as PublishedVerdict);

const mutations = mutateFixtures(differentialFixtures(), DIFFERENTIAL_RUN.perFixture, DIFFERENTIAL_RUN.seed);

// The verdicts come from scripts/differential-check.ts run by hand against the published
// NetinDS schema; docs/decisions/0021-published-schema-fidelity.md lists the deliberate differences.
describe('differential check against the published NetinDS schema', () => {
  it('has a committed verdict for exactly the mutations the seeded generator draws', () => {
    expect(verdicts.map((v) => v.id)).toEqual(mutations.map((m) => m.id));
    expect(verdicts.filter((v) => v.published).length).toBeGreaterThan(100);
    expect(verdicts.filter((v) => !v.published).length).toBeGreaterThan(100);
  });

  it('gives the published verdict on every mutation where only the schema decides', () => {
    const published = new Map(verdicts.map((v) => [v.id, v.published]));
    const disagreements: string[] = [];
    let explained = 0;
    for (const { id, document } of mutations) {
      const triad = triadVerdict(document);
      if (triad.valid === published.get(id)) continue;
      if (triad.deliberate !== undefined) explained++;
      else disagreements.push(`${id}: published ${String(published.get(id))}, Triad ${triad.codes.join(' ')}`);
    }
    expect(disagreements).toEqual([]);
    // A few expression errors the published schema cannot see; a jump means a new kind of difference.
    expect(explained).toBeLessThan(mutations.length * 0.05);
  }, 60_000);
});
