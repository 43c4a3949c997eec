import { readdirSync, readFileSync } from 'node:fs';
import { loadDocument } from '../../src/loading/load-document.js';
import { baseTemplate } from '../../src/schema/test-support/base-template.js';
import type { Fixture } from './mutate-template.js';

const EXAMPLES_DIR = new URL('../../examples/', import.meta.url);

/** How many mutations of each fixture the differential check draws, and from which seed. */
export const DIFFERENTIAL_RUN = { perFixture: 400, seed: 16 } as const;

/** The committed verdicts of the published schema, one JSON object a line. */
export const VERDICTS_FILE = new URL('./published-verdicts.jsonl', import.meta.url);

/** The valid templates the differential check mutates: the schema tests' base template and every example. */
export function differentialFixtures(): Fixture[] {
  const examples = readdirSync(EXAMPLES_DIR)
    .filter((name) => /\.ndst\.(json|ya?ml)$/.test(name))
    .sort()
    .map((name) => {
      const text = readFileSync(new URL(name, EXAMPLES_DIR), 'utf8');
      return { name, value: loadDocument(text, { file: name }).value };
    });
  return [{ name: 'base-template', value: baseTemplate() }, ...examples];
}
