import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { errorMessage, isObject } from '@triad/common';
import { cliStoreTarget } from './cli-store-target.js';
import { CONTENT_SQLITE_FILE, openContentApiCore, type ContentApiCore } from '../content-api-core.js';
import { DEFAULT_PRICE_TYPES, LANGUAGES, type BusinessShop } from '../model/article.js';
import { formatDecimal, parseDecimalString, type Decimal } from '../model/decimal.js';
import { parseShopRecord, SHOP_DEFAULTS, SHOP_ID_PATTERN } from '../model/parse-shop-record.js';
import type { SearchBackend } from '../search/search-backend.js';
import type { CatalogCommandIo, CatalogCommandOptions } from './catalog-command.js';

/** Exit codes (docs/cli.md): 1 refused (invalid record, unknown or existing shop, shop with articles), 2 usage, I/O. */
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;
/** Shops read by `list`. */
const LIST_MAX = 10_000;

/** Options shared by `add` and `update`: the shop record's members. */
interface TermOptions {
  name?: string;
  currency?: string;
  fromJson?: string;
  returns?: boolean;
  returnDays?: number;
  restockingFee?: Decimal;
  returnCondition?: { lang: string; value: string }[];
  shipping?: Decimal;
  freeShippingFrom?: Decimal | 'none';
  shipTo?: string[];
  minimumOrder?: Decimal;
  surchargeBelow?: Decimal | 'none';
  defaultTax?: Decimal | 'none';
  priceTypes?: string[] | 'default';
}

interface StoreOptions {
  dataDir?: string;
  databaseUrl?: string;
}

/**
 * `triad shops add|list|update|remove`: manages the business shops of the content API's database
 * (the one `triad serve content-api` and `triad catalog import` use; migrated first), whether the
 * service runs or not: a running service sees a change at its next request, because every change
 * makes a new content version. Exit 1 when a change is refused (nothing changed), 2 for usage and
 * I/O errors.
 */
export function createShopsCommand(io: CatalogCommandIo, options: CatalogCommandOptions = {}): Command {
  const command = new Command('shops').description(
    "Add, list, change and remove the content API's business shops and their terms",
  );
  const cwd = io.cwd ?? process.cwd();
  const fail = (name: string, code: number, message: string) => {
    io.stderr.write(`triad shops ${name}: ${message}\n`);
    if (code > io.exitCode) io.exitCode = code;
  };

  /** Opens the store, runs `work`, closes; config and I/O failures are usage errors of `name`. */
  const withStore = async (name: string, o: StoreOptions, work: (s: OpenStore) => Promise<void>) => {
    let target;
    try {
      target = cliStoreTarget(options.env, cwd, o);
    } catch (error) {
      return fail(name, EXIT_USAGE, errorMessage(error));
    }
    let store: ContentApiCore | undefined;
    try {
      store = await openContentApiCore(target);
      await work({ backend: store.backend, where: target.where });
    } catch (error) {
      // Another process holds the write lock longer than the store's busy timeout (a long import).
      const busy = isObject(error) && error.code === 'SQLITE_BUSY';
      fail(
        name,
        EXIT_USAGE,
        busy
          ? 'another import or shop change is writing this database; nothing was changed, try again when it ends'
          : errorMessage(error),
      );
    } finally {
      await store?.close();
    }
  };

  /** The record of `add`/`update`: `--from-json`, then the options over it; undefined after a usage error. */
  const recordOf = (name: string, o: TermOptions): Record<string, unknown> | undefined => {
    let record: Record<string, unknown> = {};
    if (o.fromJson !== undefined) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(path.resolve(cwd, o.fromJson), 'utf8'));
        if (!isObject(parsed)) throw new Error('it does not hold a JSON object');
        record = parsed;
      } catch (error) {
        fail(name, EXIT_USAGE, `cannot read ${o.fromJson}: ${errorMessage(error)}`);
        return undefined;
      }
    }
    return overlay(record, o);
  };

  const report = (name: string, shopId: string, violations: readonly { path: string; message: string }[]) => {
    for (const v of violations) io.stderr.write(`${v.path || '/'}: ${v.message}\n`);
    fail(name, EXIT_REFUSED, `shop ${shopId} was not saved; nothing was changed`);
  };

  addTermOptions(
    command
      .command('add')
      .description(
        'add a shop (its terms default to: returns within 14 days without fee, no shipping costs, no minimum)',
      )
      .argument('<shopId>', `the new shop's id (${SHOP_ID_PATTERN.source})`),
  )
    .addHelpText(
      'after',
      '\nExit codes: 0 added, 1 refused (invalid terms, or the shop exists; nothing changed), 2 usage or I/O error.\n' +
        'Examples:\n' +
        '  triad shops add acme --name "ACME Supplies" --currency EUR --shipping 4.95 \\\n' +
        '      --free-shipping-from 150 --ship-to DE,AT\n' +
        '  triad shops add acme --from-json acme-shop.json\n' +
        '  triad catalog import acme.xml --shop acme',
    )
    .action(async (shopId: string, o: TermOptions & StoreOptions) => {
      const record = recordOf('add', o);
      if (!record) return;
      if (record.name === undefined)
        return fail('add', EXIT_USAGE, 'give the shop a --name (or "name" in --from-json)');
      const parsed = parseShopRecord(shopId, record);
      if (!parsed.ok) return report('add', shopId, parsed.violations);
      await withStore('add', o, async ({ backend, where }) => {
        const hash = newHash();
        const outcome = await backend.putShop({ shop: parsed.shop, mode: 'create', hash });
        if (outcome === 'exists')
          return fail(
            'add',
            EXIT_REFUSED,
            `shop ${shopId} exists already; change it with: triad shops update ${shopId}`,
          );
        io.stdout.write(
          `added shop ${shopId} (${parsed.shop.name}, ${parsed.shop.currency}) to ${where}; content version ${hash}\n` +
            `import its catalog with: triad catalog import <file> --shop ${shopId}\n`,
        );
      });
    });

  addStoreOptions(
    command
      .command('list')
      .description('list the stored shops with their terms and article counts')
      .option('--json', 'print one JSON array of the shop records, each with its article count'),
  ).action(async (o: StoreOptions & { json?: boolean }) => {
    await withStore('list', o, async ({ backend }) => {
      const { shops } = await backend.listShops(LIST_MAX, 0);
      const counted = await Promise.all(shops.map(async (shop) => ({ shop, articles: await countOf(backend, shop) })));
      if (o.json) {
        io.stdout.write(
          `${JSON.stringify(
            counted.map(({ shop, articles }) => ({ ...shop, articles })),
            null,
            2,
          )}\n`,
        );
        return;
      }
      if (counted.length === 0) {
        io.stdout.write('no shops; add one with: triad shops add <shopId> --name <name>\n');
        return;
      }
      io.stdout.write(table(counted));
    });
  });

  addTermOptions(
    command
      .command('update')
      .description("change a stored shop's name, currency or terms (members not given stay as they are)")
      .argument('<shopId>', 'the shop to change'),
  )
    .addHelpText(
      'after',
      '\nExit codes: 0 changed, 1 refused (invalid terms, or no such shop; nothing changed), 2 usage or I/O error.\n' +
        'Examples:\n' +
        '  triad shops update acme --minimum-order 50 --surcharge-below 5\n' +
        '  triad shops update acme --free-shipping-from none\n' +
        '  triad shops update acme --default-tax 0.19 --price-types net_customer,net_list,gros_list\n' +
        '  triad shops update acme --currency CZK --shipping 120 --free-shipping-from none --minimum-order 1200',
    )
    .action(async (shopId: string, o: TermOptions & StoreOptions) => {
      const record = recordOf('update', o);
      if (!record) return;
      if (Object.keys(record).length === 0)
        return fail(
          'update',
          EXIT_USAGE,
          'nothing to change; give --name, --currency, --default-tax, --price-types, a term option or --from-json',
        );
      await withStore('update', o, async ({ backend, where }) => {
        const stored = await backend.findShop(shopId);
        if (!stored)
          return fail('update', EXIT_REFUSED, `unknown shop ${shopId}; add it with: triad shops add ${shopId}`);
        const parsed = parseShopRecord(shopId, record, stored);
        if (!parsed.ok) return report('update', shopId, parsed.violations);
        const hash = newHash();
        const outcome = await backend.putShop({ shop: parsed.shop, mode: 'update', hash });
        if (outcome === 'not-found') return fail('update', EXIT_REFUSED, `shop ${shopId} was removed meanwhile`);
        io.stdout.write(`updated shop ${shopId} in ${where}; content version ${hash}\n`);
      });
    });

  addStoreOptions(
    command
      .command('remove')
      .description('remove a shop; refused while it has articles unless --with-articles')
      .argument('<shopId>', 'the shop to remove')
      .option('--with-articles', "also remove the shop's articles (in the same transaction)"),
  )
    .addHelpText(
      'after',
      '\nExit codes: 0 removed, 1 refused (no such shop, or it has articles and --with-articles is missing),\n' +
        '2 usage or I/O error.\n' +
        'Example:\n  triad shops remove acme --with-articles',
    )
    .action(async (shopId: string, o: StoreOptions & { withArticles?: boolean }) => {
      await withStore('remove', o, async ({ backend, where }) => {
        const hash = newHash();
        const outcome = await backend.removeShop({ id: shopId, withArticles: o.withArticles === true, hash });
        if (outcome.status === 'not-found')
          return fail('remove', EXIT_REFUSED, `unknown shop ${shopId}; see the shops with: triad shops list`);
        if (outcome.status === 'has-articles')
          return fail(
            'remove',
            EXIT_REFUSED,
            `shop ${shopId} has ${outcome.articles} articles; give --with-articles to remove them too ` +
              '(nothing was changed)',
          );
        io.stdout.write(
          `removed shop ${shopId} and its ${outcome.articles} articles from ${where}; content version ${hash}\n`,
        );
      });
    });
  return command;
}

interface OpenStore {
  readonly backend: SearchBackend;
  readonly where: string;
}

function newHash(): string {
  return randomBytes(8).toString('hex');
}

function addStoreOptions(command: Command): Command {
  return command
    .addOption(new Option('--data-dir <dir>', `directory of ${CONTENT_SQLITE_FILE}`).env('TRIAD_DATA_DIR'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL URL instead of SQLite').env('DATABASE_URL'));
}

function addTermOptions(command: Command): Command {
  return addStoreOptions(
    command
      .option('--name <name>', "the shop's name")
      .option('--currency <code>', `ISO 4217 currency of all its amounts (default ${SHOP_DEFAULTS.currency})`)
      .option('--from-json <file>', 'the shop record as JSON (see docs/content-api.md); the options below override it')
      .option('--returns', 'returns are accepted (default)')
      .option('--no-returns', 'returns are not accepted')
      .option('--return-days <n>', 'days after delivery to return goods (default 14; 0 without returns)', wholeNumber)
      .option('--restocking-fee <percent>', 'restocking fee in percent of the goods value (default 0)', percent)
      .option(
        '--return-condition <lang=text>',
        `a return condition in a language (${LANGUAGES.join(', ')}); repeat for several`,
        condition,
      )
      .option('--shipping <amount>', 'standard shipping costs per order (default 0)', amount)
      .option(
        '--free-shipping-from <amount>',
        'orders of at least this net value ship free; "none" for never',
        optional,
      )
      .option(
        '--ship-to <countries>',
        'comma-separated ISO 3166 country codes shipped to (default: not stated)',
        countries,
      )
      .option('--minimum-order <amount>', 'minimum net order value (default 0)', amount)
      .option('--surcharge-below <amount>', 'surcharge for smaller orders; "none" refuses them (default)', optional)
      .option(
        '--default-tax <rate>',
        'VAT rate for catalog prices without TAX, as 0.19 or 19%; "none": such prices are refused (default)',
        taxRate,
      )
      .option(
        '--price-types <types>',
        `BMEcat price types taken, most preferred first (default ${DEFAULT_PRICE_TYPES.join(',')}; "default" resets)`,
        priceTypes,
      ),
  );
}

/** `record` with the options' members laid over it, section by section. */
function overlay(record: Record<string, unknown>, o: TermOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  const put = (sectionName: string, key: string, value: unknown) => {
    if (value === undefined) return;
    const current = out[sectionName];
    const base = typeof current === 'object' && current !== null ? current : {};
    out[sectionName] = { ...base, [key]: value };
  };
  // `none` removes the member (null in a record change).
  const money = (d: Decimal | 'none' | undefined) => (d === 'none' ? null : d ? { amount: d } : undefined);
  if (o.name !== undefined) out.name = o.name;
  if (o.currency !== undefined) out.currency = o.currency;
  put('returnPolicy', 'returnsAccepted', o.returns);
  put('returnPolicy', 'returnPeriodDays', o.returnDays ?? (o.returns === false ? 0 : undefined));
  put('returnPolicy', 'restockingFee', o.restockingFee);
  put('returnPolicy', 'conditions', o.returnCondition);
  put('shippingCosts', 'standard', money(o.shipping));
  put('shippingCosts', 'freeShippingFrom', money(o.freeShippingFrom));
  put('shippingCosts', 'countries', o.shipTo);
  put('minimumOrderValue', 'amount', money(o.minimumOrder));
  put('minimumOrderValue', 'surchargeBelow', money(o.surchargeBelow));
  if (o.defaultTax !== undefined) out.defaultTax = o.defaultTax === 'none' ? null : o.defaultTax;
  if (o.priceTypes !== undefined) out.priceTypes = o.priceTypes === 'default' ? null : o.priceTypes;
  return out;
}

async function countOf(backend: SearchBackend, shop: BusinessShop): Promise<number> {
  const page = await backend.search({ words: [], shopIds: [shop.id], sort: [], limit: 0, offset: 0, facets: [] });
  return page.total;
}

function table(rows: readonly { shop: BusinessShop; articles: number }[]): string {
  const money = (m: { amount: Decimal; currency: string } | undefined) =>
    m ? `${formatDecimal(m.amount)} ${m.currency}` : '-';
  const lines = [['ID', 'NAME', 'CURRENCY', 'ARTICLES', 'RETURNS', 'SHIPPING', 'FREE FROM', 'MINIMUM']];
  for (const { shop, articles } of rows) {
    const r = shop.returnPolicy;
    lines.push([
      shop.id,
      shop.name,
      shop.currency,
      String(articles),
      r.returnsAccepted ? `${r.returnPeriodDays} days` : 'no',
      money(shop.shippingCosts.standard),
      money(shop.shippingCosts.freeShippingFrom),
      money(shop.minimumOrderValue.amount),
    ]);
  }
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return (
    lines
      .map((l) =>
        l
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}

function amount(value: string): Decimal {
  const d = parseDecimalString(value);
  if (!d || d.value < 0) throw new InvalidArgumentError('expected an amount such as 4.95 (not negative)');
  return d;
}

/** An amount, or `none` (commander turns a parser's null into ''). */
function optional(value: string): Decimal | 'none' {
  return value === 'none' ? 'none' : amount(value);
}

/** A percentage as the fraction the record holds: `10` -> `{10, 2}` (0.10), `12.5` -> `{125, 3}`. */
function percent(value: string): Decimal {
  const d = amount(value);
  return { value: d.value, decimalDigits: d.decimalDigits + 2 };
}

function condition(value: string, previous: { lang: string; value: string }[] | undefined) {
  const match = /^([a-z]{2})=(.+)$/s.exec(value);
  if (!match) throw new InvalidArgumentError('expected <lang>=<text>, such as "en=Unopened goods only"');
  return [...(previous ?? []), { lang: match[1]!, value: match[2]! }];
}

/** A VAT rate as the fraction the record holds: `0.19` as it is, `19%` -> `{19, 2}`; `none` removes it. */
function taxRate(value: string): Decimal | 'none' {
  if (value === 'none') return 'none';
  const percentage = value.endsWith('%');
  const d = parseDecimalString(percentage ? value.slice(0, -1) : value);
  const rate = d && percentage ? { value: d.value, decimalDigits: d.decimalDigits + 2 } : d;
  if (!rate || rate.value < 0 || rate.value > 10 ** rate.decimalDigits)
    throw new InvalidArgumentError('expected a rate from 0 to 1 such as 0.19, a percentage such as 19%, or "none"');
  return rate;
}

/** Comma-separated BMEcat price types, most preferred first; `default` for the defaults. */
function priceTypes(value: string): string[] | 'default' {
  if (value === 'default') return 'default';
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.length === 0)
    throw new InvalidArgumentError('expected price types such as net_customer,net_list,gros_list');
  return types;
}

function countries(value: string): string[] {
  return value
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');
}
