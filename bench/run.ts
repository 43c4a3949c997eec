/**
 * `npm run bench`: runs every `bench/*-bench.ts` in its own process (so one benchmark's heap and
 * JIT state cannot colour another's), one after the other, and prints what each prints.
 * Benchmarks print numbers; they never assert timings. Name filters narrow the run:
 * `npm run bench -- validate`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const all = readdirSync(here)
  .filter((f) => f.endsWith('-bench.ts'))
  .sort();

if (args.includes('--help') || args.includes('-h')) {
  console.log(
    [
      'Usage: npm run bench [-- NAME...]',
      '',
      'Runs each benchmark in its own process and prints its numbers (no timing is asserted).',
      'NAME narrows the run to the benchmarks whose file name contains it, e.g. npm run bench -- validate.',
      '',
      'Benchmarks:',
      ...all.map((f) => `  ${f.replace(/-bench\.ts$/, '')}`),
    ].join('\n'),
  );
  process.exit(0);
}

const filters = args;
const benches = all.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (benches.length === 0) {
  console.error(`npm run bench: no benchmark matches ${filters.join(', ')}; npm run bench -- --help lists them`);
  process.exit(2);
}

let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', '--expose-gc', path.join(here, bench)],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) {
    failed++;
    console.log(`!!! ${bench} exited with ${run.status ?? run.signal}`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
