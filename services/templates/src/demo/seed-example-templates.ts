import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@triad/common';
import { saveTemplate } from '../commands/save-template.js';
import type { TemplateRepository } from '../repositories/template-repository.js';
import { ProblemError } from '@triad/service-kit';

/** What happened to one example file. */
export interface SeedOutcome {
  /** Path relative to the seed directory. */
  readonly file: string;
  readonly status: 'seeded' | 'invalid' | 'exists' | 'failed';
  /** Why it was not seeded: error codes with their place, or the failure message. */
  readonly reason?: string;
}

const SOURCE_FILE = /\.(json|ya?ml)$/i;

/**
 * Stores every example template in `directory` (recursively; `.json`, `.yaml`, `.yml`) that
 * validates, in file-name order. Never throws for one bad file: each gets its own outcome. A
 * missing directory yields no outcomes.
 */
export async function seedExampleTemplates(repository: TemplateRepository, directory: string): Promise<SeedOutcome[]> {
  if (!existsSync(directory)) return [];
  const entries = (await readdir(directory, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && SOURCE_FILE.test(e.name))
    .map((e) => path.relative(directory, path.join(e.parentPath ?? (e as { path?: string }).path ?? directory, e.name)))
    .sort();
  const outcomes: SeedOutcome[] = [];
  for (const file of entries) {
    try {
      const text = await readFile(path.join(directory, file), 'utf8');
      const format = /\.json$/i.test(file) ? 'json' : 'yaml';
      const outcome = await saveTemplate(repository, { text, format, mode: 'create' });
      if (outcome.kind === 'saved') outcomes.push({ file, status: 'seeded' });
      else {
        const reason = outcome.errors
          .slice(0, 5)
          .map((e) => `${e.code} at ${e.line}:${e.column}`)
          .join(', ');
        outcomes.push({ file, status: 'invalid', reason });
      }
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'TPL_ERR_TEMPLATE_EXISTS')
        outcomes.push({ file, status: 'exists' });
      else outcomes.push({ file, status: 'failed', reason: errorMessage(error) });
    }
  }
  return outcomes;
}

/**
 * The `examples/` folder of the installed `@triad/device-templates` package, found the way Node
 * finds packages (walking up `node_modules` folders from this file), or undefined.
 */
export function defaultExamplesDirectory(
  from: string = path.dirname(fileURLToPath(import.meta.url)),
): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', '@triad', 'device-templates', 'examples');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
