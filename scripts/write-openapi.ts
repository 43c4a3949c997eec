/**
 * Writes the OpenAPI document of every service, built in-process (no port is opened) on a
 * temporary SQLite database, and optionally lints them with Redocly CLI.
 *
 *   node --conditions=source --import tsx scripts/write-openapi.ts [--out DIR] [--lint] [SERVICE ...]
 *
 * SERVICE: templates, content-api, node-manager (default all three). `--out`: where to write
 * `<service>.json` (default a temporary folder, removed after `--lint`). `--lint`: runs
 * `redocly lint --config redocly.yaml` on the written documents and exits with its status.
 * Each document is what `GET /openapi.json` answers with the default configuration.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isServiceName, openApiDocuments, SERVICE_NAMES } from './openapi-documents.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { out: { type: 'string' }, lint: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const names = positionals.length > 0 ? positionals.filter(isServiceName) : SERVICE_NAMES;
  const unknown = positionals.filter((name) => !isServiceName(name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown service ${unknown.join(', ')}; known: ${SERVICE_NAMES.join(', ')}\n`);
    return 2;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'triad-openapi-'));
  const out = values.out === undefined ? path.join(work, 'openapi') : path.resolve(values.out);
  try {
    await mkdir(out, { recursive: true });
    const files: string[] = [];
    for (const [name, document] of await openApiDocuments(names)) {
      const file = path.join(out, `${name}.json`);
      await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
      files.push(file);
    }
    if (!values.lint) {
      process.stdout.write(`${files.join('\n')}\n`);
      return 0;
    }
    return lint(files);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs Redocly CLI's linter (no telemetry, no update check) and returns its exit status. */
function lint(files: readonly string[]): number {
  const redocly = path.join(ROOT, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(redocly, ['lint', '--config', path.join(ROOT, 'redocly.yaml'), ...files], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

process.exitCode = await main();
