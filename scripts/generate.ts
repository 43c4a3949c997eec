/**
 * Regenerates every generated file of the repository (the list: `scripts/generated-files.ts`), or
 * checks that they are current.
 *
 *   node --conditions=source --import tsx scripts/generate.ts [--check] [GENERATOR ...]
 *
 * `npm run generate` writes them; `npm run check:generated` (`--check`, part of `npm run lint`)
 * writes fresh copies into a temporary folder instead and exits 1 when a committed file differs,
 * naming each stale file, the command that regenerates it and the fresh copy (the folder is kept
 * then, removed otherwise). GENERATOR: run only these (default all).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATORS, type Generator } from './generated-files.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A committed file that regenerating would change, add or remove. */
interface Stale {
  readonly file: string;
  readonly problem: 'differs' | 'missing' | 'not generated';
  readonly generator: Generator;
}

function readCommitted(file: string): string | undefined {
  const absolute = path.join(ROOT, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
}

/** The files in a generator's own folder that it did not render (relative to the root). */
function strays(generator: Generator, rendered: ReadonlyMap<string, string>): string[] {
  if (generator.ownsDir === undefined) return [];
  const dir = path.join(ROOT, generator.ownsDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => `${generator.ownsDir}/${name}`)
    .filter((file) => !rendered.has(file));
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { check: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const unknown = positionals.filter((name) => !GENERATORS.some((generator) => generator.name === name));
  if (unknown.length > 0) {
    const known = GENERATORS.map((generator) => generator.name).join(', ');
    process.stderr.write(`unknown generator ${unknown.join(', ')}; known: ${known}\n`);
    return 2;
  }
  const chosen = GENERATORS.filter((generator) => positionals.length === 0 || positionals.includes(generator.name));
  const fresh = values.check ? await mkdtemp(path.join(tmpdir(), 'triad-generated-')) : ROOT;
  const stale: Stale[] = [];
  for (const generator of chosen) {
    const rendered = await generator.render(ROOT);
    for (const [file, text] of rendered) {
      const committed = readCommitted(file);
      if (committed === text) continue;
      stale.push({ file, problem: committed === undefined ? 'missing' : 'differs', generator });
      await mkdir(path.dirname(path.join(fresh, file)), { recursive: true });
      await writeFile(path.join(fresh, file), text);
      if (!values.check) process.stdout.write(`wrote ${file}\n`);
    }
    for (const file of strays(generator, rendered)) {
      stale.push({ file, problem: 'not generated', generator });
      if (!values.check) {
        await rm(path.join(ROOT, file));
        process.stdout.write(`removed ${file}\n`);
      }
    }
  }
  if (!values.check) {
    if (stale.length === 0) process.stdout.write('every generated file was current\n');
    return 0;
  }
  if (stale.length === 0) {
    await rm(fresh, { recursive: true, force: true });
    process.stdout.write(`generated files current (${chosen.map((generator) => generator.name).join(', ')})\n`);
    return 0;
  }
  for (const { file, problem, generator } of stale) {
    const fix =
      problem === 'not generated' ? `remove it, or run \`${generator.command}\`` : `run \`${generator.command}\``;
    const copy = problem === 'not generated' ? '' : ` (fresh copy: ${path.join(fresh, file)})`;
    process.stderr.write(`${file}: ${describe(problem)}; ${fix}${copy}\n`);
  }
  process.stderr.write(`${stale.length} generated file(s) stale; \`npm run generate\` regenerates them all\n`);
  return 1;
}

function describe(problem: Stale['problem']): string {
  switch (problem) {
    case 'differs':
      return 'out of date';
    case 'missing':
      return 'missing';
    case 'not generated':
      return 'no generator writes this file any more';
  }
}

process.exitCode = await main();
