import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../loading/value-document.js';
import { checkSchema } from './check-schema.js';
import { mutated } from './test-support/base-template.js';
import { COMPATIBILITY_TABLE } from './test-support/compatibility-cases.js';

describe('schema compatibility with NetinDS verdicts', () => {
  for (const [group, rows] of COMPATIBILITY_TABLE) {
    describe(group, () => {
      it.each(
        rows.map(([what, change, accepted]) => ({ what, change, accepted, verb: accepted ? 'accepts' : 'rejects' })),
      )('$verb $what', ({ change, accepted }) => {
        const problems = checkSchema(documentFromValue(mutated(change), 'case.json'));
        if (accepted) expect(problems).toEqual([]);
        else expect(problems.length).toBeGreaterThan(0);
      });
    });
  }
});
