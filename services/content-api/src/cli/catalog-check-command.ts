import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { errorMessage, isObject } from '@triad/common';
import { importCatalog, type CatalogFormat, type ImportResult } from '../commands/import-catalog.js';
import { DryRunStore } from '../commands/dry-run-store.js';
import { parseRejectLimit, type RejectLimit } from '../commands/reject-limit.js';
import { ImportModeError } from '../commands/resolve-import-mode.js';
import { CONTENT_SQLITE_FILE, openContentApiCore, type ContentApiCore } from '../content-api-core.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { CATALOG_READ_BYTES } from '../import/parse-catalog.js';
import { XmlSyntaxError } from '../import/xml-event-reader.js';
import type { BusinessShop } from '../model/article.js';
import { parseShopRecord } from '../model/parse-shop-record.js';
import {
  decisionsOf,
  presentCatalogCheck,
  presentCatalogCheckSarif,
  type CatalogCheck,
} from '../presenters/catalog-check-presenter.js';
import { cliStoreTarget } from './cli-store-target.js';
import { WaitingArticleRepository } from '../repositories/waiting-article-repository.js';
import { catalogHeaderText, keptText } from './price-decisions-text.js';

/** The part of the CLI's io object the check uses (`CatalogCommandIo` fits). */
interface CatalogCommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd?: string;
  exitCode: number;
}

/** Exit codes as `triad catalog import` (docs/cli.md). */
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;
const EXIT_NOTHING_COMMITTED = 3;
/** Refused records listed; the rest are counted. */
const MAX_FAILURES_LISTED = 1000;

const OUTPUTS = ['text', 'json', 'sarif'] as const;
type Output = (typeof OUTPUTS)[number];

function raise(io: CatalogCommandIo, code: number): void {
  if (code > io.exitCode) io.exitCode = code;
}

/**
 * Prints what an import did or would do, record by record, to standard error: each refused
 * record with its line, supplier article id and reasons, then each warning (an element not kept,
 * a decision), each with the line of its first occurrence.
 */
export function writeReport(io: CatalogCommandIo, result: ImportResult, format: CatalogFormat): void {
  const idName = format === 'bmecat' ? 'SUPPLIER_AID' : 'supplierArticleId';
  for (const failure of result.failed) {
    const id = failure.supplierArticleId === undefined ? '' : `, ${idName} ${failure.supplierArticleId}`;
    for (const v of failure.violations)
      io.stderr.write(`line ${failure.line}${id}: ${v.path ? `${v.path}: ` : ''}${v.message}\n`);
  }
  if (result.failedNotListed > 0) io.stderr.write(`... and ${result.failedNotListed} more rejected records\n`);
  for (const w of result.warnings)
    io.stderr.write(`warning: line ${w.line}: ${w.path ? `${w.path}: ` : ''}${w.message}\n`);
}

/**
 * `triad catalog check <file>`: reads a catalog file exactly as `catalog import` would, against a
 * stored shop (`--shop`) or a new shop with the default settings, and reports what the import
 * would do without writing anything: no catalog change, no recorded run. The store is only read
 * (the shop's settings, and for a delta which articles it holds).
 */
export function addCheckCommand(
  parent: Command,
  io: CatalogCommandIo,
  options: {
    readonly env?: Readonly<Record<string, string | undefined>> | undefined;
    readonly stdin?: Readable | undefined;
    readonly demoShops: readonly string[];
    readonly formatOf: (file: string) => CatalogFormat | undefined;
  },
): void {
  const cwd = io.cwd ?? process.cwd();
  const usage = (message: string) => {
    io.stderr.write(`triad catalog check: ${message}\n`);
    raise(io, EXIT_USAGE);
  };
  parent
    .command('check')
    .description(
      'report what importing a catalog file would do (counts, refused records, warnings, decisions); ' +
        'writes nothing',
    )
    .argument('<file>', 'catalog file, or - for standard input')
    .option('--shop <id>', 'check against this stored shop (default: a new shop with the default settings)')
    .option(
      '--max-rejects <n|p%>',
      'rejected records tolerated before nothing would be committed, as catalog import takes it',
      (value: string): RejectLimit => {
        try {
          return parseRejectLimit(value);
        } catch (error) {
          throw new InvalidArgumentError(errorMessage(error));
        }
      },
    )
    .addOption(new Option('--format <format>', 'report format').choices(OUTPUTS).default('text'))
    .addOption(
      new Option('--catalog-format <format>', 'file format (default: .jsonl/.ndjson -> jsonl, .xml -> bmecat)').choices(
        ['jsonl', 'bmecat'],
      ),
    )
    .addOption(new Option('--data-dir <dir>', `directory of ${CONTENT_SQLITE_FILE}`).env('TRIAD_DATA_DIR'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL instead of SQLite').env('DATABASE_URL'))
    .addHelpText(
      'after',
      '\nExit codes as catalog import: 0 every record would be imported, 1 some record would be rejected, ' +
        '2 usage or I/O error, 3 nothing would be committed.\n' +
        'Nothing is written: no catalog changes and no import run is recorded.\n' +
        'Examples:\n' +
        '  triad catalog check catalog.xml\n' +
        '  triad catalog check catalog.xml --shop labtools\n' +
        '  triad catalog check catalog.xml --shop labtools --format sarif > catalog.sarif\n' +
        '  gunzip -c c.xml.gz | triad catalog check - --catalog-format bmecat --format json',
    )
    .action(
      async (
        file: string,
        o: {
          shop?: string;
          maxRejects?: RejectLimit;
          format: Output;
          catalogFormat?: CatalogFormat;
          dataDir?: string;
          databaseUrl?: string;
        },
      ) => {
        const format = o.catalogFormat ?? options.formatOf(file);
        if (!format)
          return usage(`cannot tell the format of ${file}; name it .jsonl or .xml, or give --catalog-format`);
        const fullPath = file === '-' ? undefined : path.resolve(cwd, file);
        if (fullPath !== undefined) {
          try {
            statSync(fullPath);
          } catch (error) {
            const code = isObject(error) ? error.code : undefined;
            return usage(`cannot read ${file}: ${typeof code === 'string' ? code : errorMessage(error)}`);
          }
        }
        let storage: ContentApiCore | undefined;
        try {
          let shop: BusinessShop | undefined;
          let store = new DryRunStore();
          if (o.shop !== undefined) {
            storage = await openContentApiCore(cliStoreTarget(options.env, cwd, o));
            const { backend } = storage;
            shop =
              (await backend.findShop(o.shop)) ?? generateCatalog({ articles: 0 }).shops.find((s) => s.id === o.shop);
            if (!shop)
              return usage(
                `unknown shop ${o.shop}; add it first with: triad shops add ${o.shop} --name <name> ` +
                  `(demo shops: ${options.demoShops.join(', ')})`,
              );
            const waiting = new WaitingArticleRepository(storage.database);
            store = new DryRunStore(
              async (id) => (await backend.findArticle(id)) !== undefined,
              (id) => waiting.has(id),
            );
          } else {
            const parsed = parseShopRecord('check', { name: 'Catalog check' });
            if (!parsed.ok) throw new Error('the default shop settings do not check');
            shop = parsed.shop;
          }
          const input: Readable =
            fullPath === undefined
              ? (options.stdin ?? process.stdin)
              : createReadStream(fullPath, { highWaterMark: CATALOG_READ_BYTES });
          const result = await importCatalog(store, input, {
            format,
            shop,
            maxFailuresListed: MAX_FAILURES_LISTED,
            ...(o.maxRejects ? { maxRejects: o.maxRejects } : {}),
          });
          report(io, { file, format, shopId: o.shop ?? null, result }, o.format);
        } catch (error) {
          if (error instanceof XmlSyntaxError) {
            io.stderr.write(
              `triad catalog check: ${file}: malformed XML at ${error.message}; nothing would be imported\n`,
            );
            raise(io, EXIT_NOTHING_COMMITTED);
          } else if (error instanceof ImportModeError) usage(`${file}: ${error.message}`);
          else usage(errorMessage(error));
        } finally {
          await storage?.close();
        }
      },
    );
}

/** Writes the check in the asked format and sets the exit code as the import would. */
function report(io: CatalogCommandIo, check: CatalogCheck, output: Output): void {
  const { result } = check;
  const rejected = result.failed.length + result.failedNotListed;
  if (output === 'json') io.stdout.write(`${JSON.stringify(presentCatalogCheck(check), null, 2)}\n`);
  else if (output === 'sarif') io.stdout.write(`${JSON.stringify(presentCatalogCheckSarif(check), null, 2)}\n`);
  else {
    writeReport(io, result, check.format);
    io.stdout.write(catalogHeaderText(result));
    for (const [name, value] of Object.entries(decisionsOf(result)))
      io.stdout.write(`decision: ${name}: ${JSON.stringify(value)}\n`);
    const against = check.shopId === null ? 'a new shop with the default settings' : `shop ${check.shopId}`;
    const warnings = `${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`;
    if (!result.committed)
      io.stdout.write(
        `would import 0, reject ${rejected}, ${warnings}: nothing would be committed (${result.refusal}); ` +
          `checked against ${against}, nothing was written\n`,
      );
    else {
      const what = result.mode === 'prices' ? 'would change the prices of' : 'would import';
      const deleted =
        result.mode === 'replace' || result.mode === 'prices'
          ? ''
          : `, delete ${result.deleted}${result.alreadyAbsent > 0 ? ` (${result.alreadyAbsent} already absent)` : ''}`;
      io.stdout.write(
        `${what} ${result.imported}${deleted}${keptText(result.notSearchable, 'keep')}, reject ${rejected}, ` +
          `${warnings} (${result.mode}); ` +
          `checked against ${against}, nothing was written\n`,
      );
    }
  }
  if (!result.committed) raise(io, EXIT_NOTHING_COMMITTED);
  else if (rejected > 0) raise(io, EXIT_INVALID);
}
