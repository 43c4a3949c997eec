/**
 * Regenerates `src/test-support/term-fixtures.generated.ts` from a real `erl` (Debian: `apt-get
 * install erlang-base`): every spec of `src/test-support/fixture-specs.ts` is evaluated by one `erl`
 * run and its bytes written beside the Erlang text and the expected TypeScript term.
 * Run from the repository root: `node --import tsx packages/erlang-dist/scripts/capture-fixtures.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureWithErl } from '../src/test-support/erl-capture.js';
import { fixtureSpecs } from '../src/test-support/fixture-specs.js';
import { renderTermFixtures, TERM_FIXTURES_FILE } from '../src/test-support/render-term-fixtures.js';

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', TERM_FIXTURES_FILE);
const capture = captureWithErl(fixtureSpecs);
writeFileSync(target, renderTermFixtures(fixtureSpecs, capture.hexByName, capture.otpRelease));
console.log(`wrote ${fixtureSpecs.length} fixtures to ${path.relative(process.cwd(), target)}`);
