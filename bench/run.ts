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
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('-bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

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
