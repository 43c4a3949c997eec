import { seededRandom } from '@triad/common';
import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../loading/value-document.js';
import { checkSchema } from './check-schema.js';
import { baseTemplate, type Doc } from './test-support/base-template.js';
import { rawSchemaErrors } from './template-validator.js';

const REPLACEMENTS: readonly unknown[] = [
  null,
  0,
  2,
  2.5,
  -1,
  1001,
  '',
  'x',
  'a b',
  '#TIMEPOINT',
  true,
  [],
  {},
  [1],
  { a: 1 },
];

/** Every container in the document with the keys (or indexes) it holds. */
function containers(node: unknown, out: [Doc, string | number][] = []): [Doc, string | number][] {
  if (node === null || typeof node !== 'object') return out;
  for (const [key, child] of Object.entries(node)) {
    out.push([node as Doc, Array.isArray(node) ? Number(key) : key]);
    containers(child, out);
  }
  return out;
}

function mutate(next: () => number): Doc {
  const doc = baseTemplate();
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const places = containers(doc);
    const [holder, key] = places[Math.floor(next() * places.length)] as [Doc, string | number];
    const roll = next();
    if (roll < 0.25 && !Array.isArray(holder)) delete holder[key];
    else if (roll < 0.35 && !Array.isArray(holder)) holder[`${String(key)}x`] = {};
    else
      (holder as Record<string | number, unknown>)[key] = structuredClone(
        REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)],
      );
  }
  return doc;
}

describe('checkSchema on randomly broken templates', () => {
  it('reports a problem exactly when ajv rejects, without noise or repeats, and never throws', () => {
    const next = seededRandom(20240611);
    let rejected = 0;
    for (let i = 0; i < 400; i++) {
      const doc = mutate(next);
      const problems = checkSchema(documentFromValue(doc, 'fuzz.json'));
      const invalid = rawSchemaErrors(doc).length > 0;
      expect(problems.length > 0, JSON.stringify(doc)).toBe(invalid);
      if (invalid) rejected++;
      const keys = problems.map((p) => `${p.path} ${p.code}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const p of problems) {
        expect(p.message).not.toMatch(/must match|must pass|anyOf|oneOf|schema in/);
        expect(p.code).not.toBe('DT_ERR_SCHEMA_INVALID');
      }
    }
    expect(rejected).toBeGreaterThan(200);
  });
});
