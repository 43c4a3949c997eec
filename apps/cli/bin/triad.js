#!/usr/bin/env node
// The `triad` command's launcher. It is committed (not built) so that npm links
// node_modules/.bin/triad on the very first `npm install`: npm links bins before the
// `prepare` script builds dist/, and skips a bin whose file does not exist yet.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    'triad: the command is not built yet (apps/cli/dist/bin.js is missing).\n' +
      'Run npm install (it builds the CLI), or npm run build after changing the sources.\n',
  );
  process.exit(2);
}
await import(built.href);
