/**
 * Every file the repository generates from its own sources, with the command that regenerates
 * it (CONTRIBUTING rule 15). `scripts/generate.ts` writes them all (`npm run generate`) or checks
 * that regenerating changes nothing (`npm run check:generated`, part of `npm run lint`).
 *
 * Left out on purpose: `packages/erlang-dist/src/test-support/term-fixtures.generated.ts` is
 * captured from a running `erl` (its bytes depend on the OTP release, and the fun fixtures differ
 * from run to run), not derived from files in the repository; `npm run capture-fixtures -w
 * packages/erlang-dist` rewrites it and its own tests check it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderTypes } from '../packages/device-templates/scripts/generate-types.js';
import { renderErrorsDoc } from '../apps/cli/src/errors-doc.js';
import { CONSOLE_API_TYPES_DIR, renderConsoleApiTypes } from './console-api-types.js';

/** One generator: what it writes and how to run it alone. */
export interface Generator {
  /** The name `scripts/generate.ts` accepts to run only this generator. */
  readonly name: string;
  /** The command a person runs to regenerate its files. */
  readonly command: string;
  /**
   * A folder that holds only this generator's files (relative to the repository root): a file in
   * it that the generator no longer writes is stale too.
   */
  readonly ownsDir?: string;
  /** The text of each file it writes, keyed by the path relative to the repository root. */
  readonly render: (root: string) => Promise<ReadonlyMap<string, string>>;
}

/** The generators, in the order `npm run generate` runs them. */
export const GENERATORS: readonly Generator[] = [
  {
    name: 'device-template-types',
    command: 'npm run generate:types -w packages/device-templates',
    render: async (root) => {
      const schema = readFileSync(path.join(root, 'packages/device-templates/schema/device-template.schema.json'));
      return new Map([
        ['packages/device-templates/src/generated/device-template.generated.ts', await renderTypes(schema.toString())],
      ]);
    },
  },
  {
    name: 'errors-doc',
    command: 'npm run docs:errors',
    render: () => Promise.resolve(new Map([['docs/errors.md', renderErrorsDoc()]])),
  },
  {
    name: 'console-api-types',
    command: 'npm run generate -- console-api-types',
    ownsDir: CONSOLE_API_TYPES_DIR,
    render: renderConsoleApiTypes,
  },
];
