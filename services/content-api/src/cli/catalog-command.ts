import { createReadStream, createWriteStream, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { errorMessage, isObject } from '@triad/common';
import type { CatalogFormat, ImportMode, ImportResult } from '../commands/import-catalog.js';
import { importAndRecord } from '../commands/import-and-record.js';
import { cliStoreTarget } from './cli-store-target.js';
import { bmecatCatalog, jsonLinesCatalog } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { XmlSyntaxError } from '../import/xml-event-reader.js';
import { StoreBusyError } from '../search/store-busy-error.js';
import { ImportModeError } from '../commands/resolve-import-mode.js';
import { IMPORT_MODES } from '../model/import-mode.js';
import { parseRejectLimit, type RejectLimit } from '../commands/reject-limit.js';
import { CATALOG_READ_BYTES } from '../import/parse-catalog.js';
import type { Article, BusinessShop } from '../model/article.js';
import { CONTENT_SQLITE_FILE, openContentApiCore, type ContentApiCore } from '../content-api-core.js';
import { addCheckCommand, writeReport } from './catalog-check-command.js';
import { catalogHeaderText, keptText, priceDecisionsText } from './price-decisions-text.js';

/** The part of the CLI's io object the catalog commands use. */
export interface CatalogCommandIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Directory relative paths are resolved against; default `process.cwd()`. */
  readonly cwd?: string;
  exitCode: number;
}

export interface CatalogCommandOptions {
  /** Environment for the config (`TRIAD_DATA_DIR`, `DATABASE_URL`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Read by `import -`; default `process.stdin`. */
  readonly stdin?: Readable;
}

/**
 * Exit codes (docs/cli.md): 1 committed with some record rejected, 2 usage or I/O error, 3 nothing
 * committed (malformed file, or more records rejected than `--max-rejects` allows).
 */
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;
const EXIT_NOTHING_COMMITTED = 3;
/** Lines joined into one write while generating (fewer, larger writes). */
const GENERATE_BATCH = 256;
/** Records between progress-bar updates. */
const PROGRESS_EVERY = 1000;
/** Rejected records printed one per line; the rest are counted. */
const MAX_FAILURES_PRINTED = 1000;

const FORMATS: readonly CatalogFormat[] = ['jsonl', 'bmecat'];
const SHOP_IDS = generateCatalog({ articles: 0 }).shops.map((s) => s.id);

function raise(io: CatalogCommandIo, code: number): void {
  if (code > io.exitCode) io.exitCode = code;
}

/**
 * `triad catalog generate|import`: writes the deterministic demo catalog (JSON Lines or BMEcat
 * 2005, streamed) and imports a catalog file as one shop's catalog into the content API's
 * database (the one `triad serve content-api` uses; migrated first). Import prints rejected
 * records with their line numbers, then a summary; exit 1 when a record was rejected or the XML
 * is malformed, 2 for usage and I/O errors.
 */
export function createCatalogCommand(io: CatalogCommandIo, options: CatalogCommandOptions = {}): Command {
  const command = new Command('catalog').description('Generate and import article catalogs of the content API');
  const cwd = io.cwd ?? process.cwd();
  const usage = (name: string, message: string) => {
    io.stderr.write(`triad catalog ${name}: ${message}\n`);
    raise(io, EXIT_USAGE);
  };

  command
    .command('generate')
    .description('write a deterministic demo catalog (several shops, three languages, block prices, UNSPSC groups)')
    .requiredOption('--articles <n>', 'number of articles', wholeNumber)
    .option('--shops <k>', `articles of the first k shops only (1-${SHOP_IDS.length})`, wholeNumber, SHOP_IDS.length)
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('jsonl'))
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .option('--seed <s>', 'seed; the same seed and count give the same file', wholeNumber, 1)
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  triad catalog generate --articles 1000 > demo.jsonl\n' +
        '  triad catalog generate --articles 1000000 --format bmecat -o big.xml',
    )
    .action(async (o: { articles: number; shops: number; format: CatalogFormat; output?: string; seed: number }) => {
      if (o.shops > SHOP_IDS.length) return usage('generate', `--shops is at most ${SHOP_IDS.length}`);
      const catalog = generateCatalog({ articles: 0, seed: o.seed });
      const shops = catalog.shops.slice(0, o.shops);
      const articles = pickArticles(o.articles, o.seed, new Set(shops.map((s) => s.id)));
      const chunks =
        o.format === 'bmecat'
          ? bmecatCatalog(articles, { catalogId: `triad-demo-${o.seed}`, currency: shops[0]!.currency })
          : jsonLinesCatalog(articles);
      try {
        if (o.output === undefined) await writeAll(chunks, io.stdout);
        else await writeFile(chunks, path.resolve(cwd, o.output));
      } catch (error) {
        // A reader that stops early (`| head`) is not an error of ours.
        if (!isObject(error) || error.code !== 'EPIPE') usage('generate', `cannot write: ${errorMessage(error)}`);
      }
    });

  command
    .command('import')
    .description(
      "replace one shop's catalog with a JSON Lines or BMEcat file (atomically; bad records are skipped and reported)",
    )
    .argument('<file>', 'catalog file, or - for standard input')
    .requiredOption(
      '--shop <id>',
      'the shop whose catalog is replaced: a stored shop (triad shops list; add one with triad shops add) ' +
        `or a demo shop (${SHOP_IDS.join(', ')})`,
    )
    .addOption(
      new Option('--format <format>', 'file format (default: .jsonl/.ndjson -> jsonl, .xml -> bmecat)').choices(
        FORMATS,
      ),
    )
    .addOption(
      new Option(
        '--mode <mode>',
        "replace the shop's catalog, upsert the file's articles, or delete them (JSON Lines; default replace); " +
          "a BMEcat file's transaction sets its mode (T_NEW_CATALOG replace, T_UPDATE_PRODUCTS products, " +
          'T_UPDATE_PRICES prices), and a --mode given must agree with it',
      ).choices(IMPORT_MODES),
    )
    .option(
      '--max-rejects <n|p%>',
      'rejected records tolerated before nothing is committed (default: none if the shop would be left empty, else 5%)',
      rejectLimit,
    )
    .addOption(new Option('--data-dir <dir>', `directory of ${CONTENT_SQLITE_FILE}`).env('TRIAD_DATA_DIR'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL instead of SQLite').env('DATABASE_URL'))
    .addHelpText(
      'after',
      '\nExit codes: 0 all imported, 1 imported with some record rejected, 2 usage or I/O error, 3 nothing committed (malformed file or too many rejected records).\nExamples:\n  triad catalog import demo.jsonl --shop office-direct\n  triad catalog import catalog.xml --shop labtools --database-url postgres://localhost/triad\n  gunzip -c c.jsonl.gz | triad catalog import - --shop labtools --format jsonl',
    )
    .action(
      async (
        file: string,
        o: {
          shop: string;
          format?: CatalogFormat;
          mode?: ImportMode;
          maxRejects?: RejectLimit;
          dataDir?: string;
          databaseUrl?: string;
        },
      ) => {
        const format = o.format ?? formatOf(file);
        if (!format)
          return usage(
            'import',
            `cannot tell the format of ${file}; name it .jsonl or .xml, or give --format jsonl|bmecat`,
          );
        const fullPath = file === '-' ? undefined : path.resolve(cwd, file);
        let size: number | undefined;
        if (fullPath !== undefined) {
          try {
            size = statSync(fullPath).size;
          } catch (error) {
            const code = isObject(error) ? error.code : undefined;
            return usage('import', `cannot read ${file}: ${typeof code === 'string' ? code : errorMessage(error)}`);
          }
        }
        let target;
        try {
          target = cliStoreTarget(options.env, cwd, o);
        } catch (error) {
          return usage('import', errorMessage(error));
        }
        let storage: ContentApiCore | undefined;
        try {
          storage = await openContentApiCore(target);
          const shop =
            (await storage.backend.findShop(o.shop)) ??
            generateCatalog({ articles: 0 }).shops.find((s) => s.id === o.shop);
          if (!shop)
            return usage(
              'import',
              `unknown shop ${o.shop}; add it first with: triad shops add ${o.shop} --name <name> ` +
                `(known: ${await knownShops(storage.backend)})`,
            );
          const input: Readable =
            fullPath === undefined
              ? (options.stdin ?? process.stdin)
              : createReadStream(fullPath, { highWaterMark: CATALOG_READ_BYTES });
          await runImport(io, storage, input, {
            format,
            fileName: file === '-' ? '-' : path.basename(file),
            shop,
            size,
            ...(o.mode ? { mode: o.mode } : {}),
            ...(o.maxRejects ? { maxRejects: o.maxRejects } : {}),
            where: target.where,
          });
        } catch (error) {
          if (error instanceof ImportModeError) {
            usage('import', `${file}: ${error.message}; nothing was changed`);
          } else if (error instanceof StoreBusyError) {
            io.stderr.write(`triad catalog import: ${error.message}\n`);
            raise(io, EXIT_NOTHING_COMMITTED);
          } else if (error instanceof XmlSyntaxError) {
            io.stderr.write(`triad catalog import: ${file}: malformed XML at ${error.message}; nothing was changed\n`);
            raise(io, EXIT_NOTHING_COMMITTED);
          } else {
            usage('import', errorMessage(error));
          }
        } finally {
          await storage?.close();
        }
      },
    );
  addCheckCommand(command, io, { ...options, demoShops: SHOP_IDS, formatOf });
  return command;
}

/**
 * Imports with a progress bar on a TTY and records the run (the admin API's
 * `/admin/business-shops/{shopId}/imports`), prints the rejected records and the summary.
 */
async function runImport(
  io: CatalogCommandIo,
  store: Pick<ContentApiCore, 'backend' | 'importRuns'>,
  input: Readable,
  o: {
    format: CatalogFormat;
    fileName: string;
    shop: BusinessShop;
    size: number | undefined;
    mode?: ImportMode;
    maxRejects?: RejectLimit;
    where: string;
  },
): Promise<void> {
  const bar =
    io.stderr.isTTY && o.size !== undefined
      ? new SingleBar(
          {
            stream: process.stderr,
            clearOnComplete: true,
            format: 'importing [{bar}] {percentage}% | {value}/{total} bytes | {records} records',
          },
          Presets.shades_classic,
        )
      : undefined;
  bar?.start(o.size ?? 0, 0, { records: 0 });
  const started = process.hrtime.bigint();
  let result: ImportResult;
  let recordError: Error | undefined;
  try {
    ({ result, recordError } = await importAndRecord(store.backend, store.importRuns, input, {
      format: o.format,
      fileName: o.fileName,
      shop: o.shop,
      progressEvery: PROGRESS_EVERY,
      maxFailuresListed: MAX_FAILURES_PRINTED,
      ...(o.mode ? { mode: o.mode } : {}),
      onWait: () => io.stderr.write('triad catalog import: waiting for another import into this store to finish...\n'),
      ...(o.maxRejects ? { maxRejects: o.maxRejects } : {}),
      ...(bar ? { onProgress: (records: number) => bar.update(bytesReadOf(input), { records }) } : {}),
    }));
  } finally {
    bar?.stop();
  }
  if (recordError)
    io.stderr.write(
      `triad catalog import: the run could not be recorded (${recordError.message}); the import stands\n`,
    );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  writeReport(io, result, o.format);
  const rejected = result.failed.length + result.failedNotListed;
  if (!result.committed) {
    io.stderr.write(`triad catalog import: nothing was committed: ${result.refusal}\n`);
    io.stdout.write(`imported 0, rejected ${rejected}; nothing was committed, shop ${o.shop.id} is unchanged\n`);
    raise(io, EXIT_NOTHING_COMMITTED);
    return;
  }
  const rate = seconds > 0 ? Math.round(result.imported / seconds) : result.imported;
  const absent = result.alreadyAbsent > 0 ? ` (${result.alreadyAbsent} already absent)` : '';
  const deleted = result.mode === 'replace' || result.mode === 'prices' ? '' : `, deleted ${result.deleted}${absent}`;
  const what = result.mode === 'prices' ? 'changed the prices of' : 'imported';
  io.stdout.write(
    `${what} ${result.imported}${deleted}${keptText(result.notSearchable, 'kept')}, rejected ${rejected} ` +
      `in ${seconds.toFixed(1)} s (${rate} articles/s)` +
      ` into shop ${o.shop.id} (${o.where}); content version ${result.hash}\n`,
  );
  io.stdout.write(catalogHeaderText(result));
  io.stdout.write(priceDecisionsText(result, o.shop));
  if (rejected > 0) raise(io, EXIT_INVALID);
}

/** How far a file stream has read (`ReadStream.bytesRead`); 0 for other streams. */
function bytesReadOf(input: Readable): number {
  const bytes: unknown = Reflect.get(input, 'bytesRead');
  return typeof bytes === 'number' ? bytes : 0;
}

/** The first `count` generated articles whose shop is in `shops` (generation order, lazily). */
function* pickArticles(count: number, seed: number, shops: ReadonlySet<string>): Generator<Article> {
  if (count === 0) return;
  let taken = 0;
  // Articles go round-robin over all shops, so enough are generated to find `count` of the chosen ones.
  const total = Math.ceil((count * SHOP_IDS.length) / shops.size);
  for (const article of generateCatalog({ articles: total, seed }).articles()) {
    if (!shops.has(article.shopId)) continue;
    yield article;
    taken += 1;
    if (taken === count) return;
  }
}

/** Writes chunks to an io stream, waiting for `drain` when it is a real stream that asks for it. */
async function writeAll(chunks: Iterable<string>, out: CatalogCommandIo['stdout']): Promise<void> {
  const stream = out as Partial<Writable>;
  for (const batch of batches(chunks)) {
    if (out.write(batch) === false && typeof stream.once === 'function') await once(stream as Writable, 'drain');
  }
}

async function writeFile(chunks: Iterable<string>, file: string): Promise<void> {
  const stream = createWriteStream(file);
  const failed = once(stream, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => {});
  const written = (async () => {
    for (const batch of batches(chunks)) {
      if (!stream.write(batch)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'finish');
  })();
  await Promise.race([written, failed]);
}

function* batches(chunks: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  for (const chunk of chunks) {
    batch.push(chunk);
    if (batch.length === GENERATE_BATCH) {
      yield batch.join('');
      batch = [];
    }
  }
  if (batch.length > 0) yield batch.join('');
}

function formatOf(file: string): CatalogFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  return ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : ext === '.xml' ? 'bmecat' : undefined;
}

async function knownShops(backend: ContentApiCore['backend']): Promise<string> {
  const stored = (await backend.listShops(1000, 0)).shops.map((s) => s.id);
  return [...new Set([...SHOP_IDS, ...stored])].join(', ');
}

function rejectLimit(value: string): RejectLimit {
  try {
    return parseRejectLimit(value);
  } catch (error) {
    throw new InvalidArgumentError(errorMessage(error));
  }
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}
