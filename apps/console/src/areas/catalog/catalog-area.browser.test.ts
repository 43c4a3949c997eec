/**
 * The catalog area in a real browser: the content API on port 0 with the demo catalog in a
 * temporary SQLite data dir, Debian's Chromium through playwright-core, axe-core. Needs the
 * console build (`npm run build -w apps/console`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createCatalogCommand,
  createShopsCommand,
  generateCatalog,
  startContentApiServer,
  toJsonLinesRecord,
  type RunningContentApiServer,
} from '@triad/content-api-service';
import {
  CONSOLE_ROOT,
  checkLook,
  consoleBuilt,
  describeInBrowser,
  launchBrowser,
  openWatchedPage,
  seriousAxeViolations,
  VIEWPORTS,
  type WatchedPage,
} from '../../test-support/browser.js';

const ARTICLES = 400;

/** Presses Tab until the `name`d control (or `target`) has the focus, at most 60 times; fails otherwise. */
async function tabTo(page: Page, role: 'button' | 'link' | 'combobox', name: string | RegExp): Promise<void> {
  await tabToElement(page, page.getByRole(role, { name }).first(), `the ${role} ${String(name)}`);
}

async function tabToElement(page: Page, target: Locator, what: string): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

/** The number of articles the search page announces, once it announces one. */
async function announcedTotal(page: Page): Promise<number> {
  const status = page.locator('p.result-count');
  let total = Number.NaN;
  await expect
    .poll(async () => {
      // Grouped as the browser's locale groups (en-US: 24,998).
      total = Number(/^([\d,]+) articles?$/.exec((await status.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
      return Number.isNaN(total);
    })
    .toBe(false);
  return total;
}

/** Runs `triad catalog import <args>` in this process; resolves its exit code and standard error. */
async function catalogImport(cwd: string, args: readonly string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const io = { stdout: { write: () => true }, stderr: { write: (text: string) => (err += text) }, cwd, exitCode: 0 };
  await createCatalogCommand(io, { env: {} }).parseAsync(['import', ...args], { from: 'user' });
  return { code: io.exitCode, err };
}

/** Runs `triad shops <args>` in this process; resolves its exit code. */
async function shops(cwd: string, args: readonly string[]): Promise<number> {
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, cwd, exitCode: 0 };
  await createShopsCommand(io, { env: {} }).parseAsync(args, { from: 'user' });
  return io.exitCode;
}

/**
 * A BMEcat 1.2 catalog written for these tests: one article taken (its price gives no TAX and takes the
 * shop's default tax; a feature named by an id the file does not define), one without ORDER_UNIT (refused),
 * and elements Triad does not keep (the header's CATALOG_ID, CATALOG_VERSION and TERRITORY, twice; an article's
 * SEGMENT; a UDX).
 */
const KLEMMEN_BMECAT = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="1.2">
  <HEADER>
    <GENERATOR_INFO>Klemmen PIM 2.1</GENERATOR_INFO>
    <CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>K1</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION>
      <TERRITORY>DE</TERRITORY><TERRITORY>AT</TERRITORY><CURRENCY>EUR</CURRENCY></CATALOG>
    <SUPPLIER><SUPPLIER_NAME>Klemmen GmbH &amp; Co. KG</SUPPLIER_NAME></SUPPLIER>
  </HEADER>
  <T_NEW_CATALOG>
    <ARTICLE>
      <SUPPLIER_AID>KL-100</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Reihenklemme</DESCRIPTION_SHORT><SEGMENT>Elektro</SEGMENT></ARTICLE_DETAILS>
      <ARTICLE_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
        <FEATURE><FT_IDREF>AAB999</FT_IDREF><FVALUE>grau</FVALUE></FEATURE></ARTICLE_FEATURES>
      <ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.20</PRICE_AMOUNT></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
      <USER_DEFINED_EXTENSIONS><UDX.KLEMMEN.FARBE>grau</UDX.KLEMMEN.FARBE></USER_DEFINED_EXTENSIONS>
    </ARTICLE>
    <ARTICLE>
      <SUPPLIER_AID>KL-200</SUPPLIER_AID>
      <ARTICLE_DETAILS><DESCRIPTION_SHORT>Klemme ohne Einheit</DESCRIPTION_SHORT></ARTICLE_DETAILS>
      <ARTICLE_ORDER_DETAILS><QUANTITY_MIN>1</QUANTITY_MIN></ARTICLE_ORDER_DETAILS>
      <ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_customer">
        <PRICE_AMOUNT>1.30</PRICE_AMOUNT><TAX>0.19</TAX></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>
    </ARTICLE>
  </T_NEW_CATALOG>
</BMECAT>
`;

/** The 1-based line of the first line of KLEMMEN_BMECAT holding `text`. */
const klemmenLine = (text: string) => KLEMMEN_BMECAT.split('\n').findIndex((line) => line.includes(text)) + 1;

describeInBrowser('catalog area in Chromium', () => {
  let directory: string;
  let server: RunningContentApiServer;
  let browser: Browser;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error('the console is not built: npm run build -w apps/console');
    directory = await mkdtemp(path.join(tmpdir(), 'triad-console-catalog-'));
    server = await startContentApiServer(
      { port: 0, dataDir: path.join(directory, 'data'), demo: true, demoArticles: ARTICLES, logLevel: 'silent' },
      { env: {}, consoleRoot: CONSOLE_ROOT },
    );
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  /** A page at `path`, signed in with the demo client the form is filled in with. */
  const signedIn = async (urlPath = '/', viewport: { width: number; height: number } = VIEWPORTS.desktop) => {
    const watched = await openWatchedPage(browser, viewport);
    pages.push(watched);
    const { page } = watched;
    await page.goto(`${server.url}${urlPath}`);
    await expect.poll(() => page.getByLabel('Client ID').inputValue()).toMatch(/^triad-/);
    expect(await page.getByLabel('Client secret').inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    return watched;
  };

  it('signs in, searches "pen", applies a facet that lowers the total, and walks back', async () => {
    const { page, errors } = await signedIn();
    const box = page.getByRole('combobox', { name: 'Search articles' });
    await box.fill('pen');
    await box.press('Enter');
    await page.waitForURL(/\?q=pen$/);
    const all = await announcedTotal(page);
    expect(all).toBeGreaterThan(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('pen');
    const hit = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 3 }) })
      .first();
    await expect.poll(() => hit.textContent()).toMatch(/(EUR|CZK).*for \d+ /);
    // The demo images are on images.example.com, which never resolves: a placeholder, no failed load.
    expect(await page.locator('ol.hits .article-image.none').count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'catalog-search')).toEqual([]);

    const filters = page.getByRole('navigation', { name: 'Filters' });
    // A classification group reads by the name the catalog gave it, its code after it.
    const eclass = filters.getByRole('region', { name: 'ECLASS' }).getByRole('listitem').first();
    expect(await eclass.textContent()).toMatch(/^[A-Za-z][^(]* \d{8} \([\d,]+\)$/);
    // Counts and units as the browser's locale writes them (en-US in Chromium here).
    expect(await hit.textContent()).toMatch(/for [\d,]+ (piece|box|pack|pair|set|roll)/);
    const bosch = filters.getByRole('region', { name: 'Manufacturer' }).getByRole('link').first();
    const bucket = Number(/\((\d+)\)$/.exec((await bosch.textContent()) ?? '')?.[1]);
    await bosch.click();
    await expect.poll(() => announcedTotal(page)).toBe(bucket);
    expect(bucket).toBeLessThan(all);
    expect(new URL(page.url()).searchParams.get('fq')).toContain('manufacturerName');
    await expect.poll(() => page.getByRole('button', { name: /^Remove filter Manufacturer: / }).count()).toBe(1);

    await page.goBack();
    await expect.poll(() => announcedTotal(page)).toBe(all);
    expect(errors).toEqual([]);
  });

  it('searches as the buyer types, suggests in a combobox, marks matches and names a correction', async () => {
    const { page, errors } = await signedIn();
    const box = page.getByRole('combobox', { name: 'Search articles' });
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    const requests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/articles' || url.pathname === '/api/suggest') requests.push(url.pathname + url.search);
    });
    const articleRequests = () => requests.filter((r) => r.startsWith('/api/articles?'));

    // Typing quickly searches once, after the pause, with highlight=true; the list opens.
    await box.click();
    await page.keyboard.type('pa', { delay: 20 });
    await page.waitForURL(/\?q=pa$/);
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    expect(articleRequests().filter((r) => /[?&]q=p(&|$)/.test(r))).toEqual([]);
    expect(articleRequests().some((r) => /[?&]q=pa&/.test(r) && r.includes('highlight=true'))).toBe(true);
    expect(await box.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    const options = listbox.getByRole('option');
    expect(await options.count()).toBeGreaterThan(0);
    const texts = (await options.locator('.suggestion-text').allTextContents()).map((t) => t.trim());
    for (const text of texts) expect(text.startsWith('pa') || text.length >= 5).toBe(true);
    expect(await options.first().textContent()).toMatch(/[\d,]+ articles?$/);

    // No request for a query that searches the same: a trailing space.
    const before = articleRequests().length;
    await page.keyboard.type(' ');
    await page.waitForTimeout(600);
    expect(articleRequests().length).toBe(before);
    await page.keyboard.press('Backspace');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');

    // Arrow keys walk the options (the box keeps the focus), Escape closes, Enter chooses.
    await box.press('ArrowDown');
    const first = options.first();
    await expect.poll(() => first.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await box.press('Escape');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.getAttribute('aria-activedescendant')).toBeNull();
    await box.press('ArrowDown');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    await box.press('Enter');
    const chosen = texts[0]!;
    await page.waitForURL((url) => url.searchParams.get('q') === chosen);
    expect(await box.inputValue()).toBe(chosen);
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    await announcedTotal(page);

    // A word of 5 to 8 letters with two letters swapped: the results name the word searched.
    const word = texts.find((t) => /^[a-z]{5,8}$/.test(t) && t[2] !== t[3]);
    if (word !== undefined) {
      const typo = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
      const reply = page.waitForResponse((r) => r.url().includes('/api/articles?') && r.url().includes(`q=${typo}`));
      await box.fill(typo);
      const body = (await (await reply).json()) as { members: { highlights?: unknown }[] };
      await expect.poll(() => page.locator('p.correction').textContent()).toMatch(/^Showing results for /);
      // The nearest word of the shops: the one typed, or one as near and in more articles.
      expect(await page.locator('p.correction em').textContent()).toMatch(/^[a-z]{4,9}$/);
      // Marks only when the server highlights (highlight=true); never markup as text.
      if (body.members.some((m) => m.highlights !== undefined))
        await expect.poll(() => page.locator('ol.hits mark').count()).toBeGreaterThan(0);
      expect(await page.locator('ol.hits').textContent()).not.toContain('<mark>');
    }

    // A click on an option chooses it.
    await box.fill('pe');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    const option = listbox.getByRole('option').first();
    const optionText = ((await option.locator('.suggestion-text').textContent()) ?? '').trim();
    await option.click();
    await page.waitForURL((url) => url.searchParams.get('q') === optionText);
    expect(errors).toEqual([]);
  });

  it('looks right with the suggestions open and matches marked, at 1280 and 390 px, light and dark', async () => {
    const { page, errors } = await signedIn();
    // Until the server highlights, its replies get highlights here as the API will send them.
    await page.route('**/api/articles?*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { members: { article: { description: string } }[] };
      const q = new URL(route.request().url()).searchParams.get('q') ?? '';
      const word = q.trim().split(/\s+/).pop()?.toLowerCase() ?? '';
      for (const member of body.members as { article: { description: string }; highlights?: unknown }[]) {
        const at = word === '' ? -1 : member.article.description.toLowerCase().indexOf(word);
        if (at >= 0) member.highlights = { title: { spans: [[at, at + word.length]] } };
      }
      await route.fulfill({ response, json: body });
    });
    const box = page.getByRole('combobox', { name: 'Search articles' });
    await box.click();
    await page.keyboard.type('pe', { delay: 20 });
    await page.waitForURL(/\?q=pe$/);
    await announcedTotal(page);
    await expect.poll(() => page.locator('ol.hits mark').count()).toBeGreaterThan(0);
    expect((await page.locator('ol.hits mark').first().textContent())?.toLowerCase()).toBe('pe');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    expect(await checkLook(page, 'catalog-suggest')).toEqual([]);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('sorts by price with currency "Any" in the currency of most shops, says so, then filters by price', async () => {
    const { page, errors } = await signedIn('/?q=pen');
    await announcedTotal(page);
    await page.getByLabel('Sort by').selectOption({ label: 'Price, lowest first' });
    // Results and facets stay; the page names the currency it chose and how to pick another.
    await expect.poll(() => page.locator('#price-sort-currency').textContent()).toMatch(/^Sorted by price in EUR/);
    const total = await announcedTotal(page);
    expect(total).toBeGreaterThan(0);
    expect(await page.getByRole('navigation', { name: 'Filters' }).getByRole('link').count()).toBeGreaterThan(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByLabel('Currency').inputValue()).toBe('EUR');
    const prices = await page.locator('.hit-price strong').allTextContents();
    const amounts = prices.map((text) => Number(text.replace(/[^\d.]/g, '')));
    expect(prices.every((text) => text.endsWith('EUR'))).toBe(true);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(await checkLook(page, 'catalog-search-price-sort')).toEqual([]);

    await page.getByLabel('Currency').selectOption('CZK');
    await expect.poll(() => page.locator('#price-sort-currency').count()).toBe(0);
    await expect.poll(async () => (await page.locator('.hit-price strong').allTextContents())[0]).toMatch(/CZK$/);
    await page.getByLabel('Currency').selectOption('EUR');
    await expect.poll(() => announcedTotal(page)).toBe(total);

    await page.getByLabel('Highest price').fill('100');
    await page.getByRole('button', { name: 'Apply price' }).click();
    await expect.poll(() => announcedTotal(page)).toBeLessThan(total);
    const capped = await page.locator('.hit-price strong').allTextContents();
    expect(capped.map((text) => Number(text.replace(/[^\d.]/g, ''))).every((amount) => amount <= 100)).toBe(true);
    await page.getByRole('button', { name: 'Remove filter Price: … – 100' }).click();
    await expect.poll(() => announcedTotal(page)).toBe(total);
    expect(errors).toEqual([]);
  });

  it('opens an article from a link, shows its prices and follows its reference', async () => {
    const catalog = generateCatalog({ articles: ARTICLES, seed: 1 });
    const referring = [...catalog.articles()].find((article) => article.references.length > 0);
    if (!referring) throw new Error('the demo catalog has no reference');
    const target = referring.references[0]?.refId ?? '';
    const { page, errors } = await signedIn(`/articles/${encodeURIComponent(referring.id)}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(referring.description);
    const prices = page.getByRole('table', { name: /Net prices per/ });
    expect(await prices.getByRole('row').count()).toBe(1 + referring.blockPrices.length);
    expect(await page.getByRole('heading', { name: 'Features' }).count()).toBe(1);
    expect(await page.getByText(referring.supplierArticleId, { exact: true }).count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'catalog-article')).toEqual([]);

    await page.getByRole('link', { name: target }).click();
    const referenced = [...catalog.articles()].find((article) => article.id === target);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(referenced?.description);
    expect(new URL(page.url()).pathname).toBe(`/articles/${encodeURIComponent(target)}`);
    expect(errors).toEqual([]);
  });

  /** The admin client `npm start` prints. */
  const adminClient = () => {
    const admin = server.notes.map((note) => /^admin client (id|secret): (\S+)/.exec(note)).filter((m) => m !== null);
    return { id: admin.find((m) => m[1] === 'id')?.[2] ?? '', secret: admin.find((m) => m[1] === 'secret')?.[2] ?? '' };
  };

  it('lists the shops with their policies and adds one with the admin client', async () => {
    const admin = adminClient();
    const { page, errors } = await signedIn();
    await page.getByRole('navigation', { name: 'Catalog' }).getByRole('link', { name: 'Shops' }).click();
    const shops = page.locator('ul.shops > li');
    await expect.poll(() => shops.count()).toBe(generateCatalog({ articles: 1, seed: 1 }).shops.length);
    expect(await shops.first().textContent()).toMatch(/Returns.*Shipping.*Minimum order/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'catalog-shops')).toEqual([]);

    await page.getByLabel('Admin client ID').fill(admin.id);
    await page.getByLabel('Admin client secret').fill(admin.secret);
    await page.getByRole('button', { name: 'Sign in as admin' }).click();
    await page.getByLabel('Shop id').fill('acme');
    await page.getByLabel('Name', { exact: true }).fill('ACME Supplies');
    await page.getByLabel('Shipping costs per order').fill('4.95');
    await page.getByRole('button', { name: 'Add shop' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'added' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('heading', { name: 'ACME Supplies' }).count()).toBe(1);
    expect(await page.locator('#shop-acme').textContent()).toContain('4.95 EUR per order');
    // Added without a minimum order value: nothing is said about one.
    expect(await page.locator('#shop-acme').textContent()).not.toContain('Minimum order');
    expect(errors).toEqual([]);
  });

  it("shows a shop's recent imports with their refused records, by keyboard too", async () => {
    // A small catalog whose third record has an unknown unit, imported by `triad catalog import`.
    const records = [...generateCatalog({ articles: 12, seed: 3 }).articles()]
      .filter((article) => article.shopId === 'labtools')
      .map(toJsonLinesRecord);
    const bad = JSON.stringify({
      ...(JSON.parse(records[0] ?? '{}') as object),
      supplierArticleId: 'BAD-1',
      orderDetails: { orderUnit: 'XYZ', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
    });
    await writeFile(path.join(directory, 'labtools.jsonl'), [records[0], records[1], bad, records[2]].join('\n'));
    const importLabtools = (maxRejects: string) =>
      catalogImport(directory, [
        ...['labtools.jsonl', '--shop', 'labtools', '--data-dir', path.join(directory, 'data')],
        ...['--max-rejects', maxRejects],
      ]);
    const committed = await importLabtools('1');
    expect(committed).toEqual({
      code: 1,
      err: expect.stringMatching(/^line 3, supplierArticleId BAD-1: \/orderDetails\/orderUnit: /) as string,
    });
    const refused = await importLabtools('0');
    expect(refused.code).toBe(3);

    const admin = adminClient();
    const { page, errors } = await signedIn('/shops?shop=labtools');
    await page.getByLabel('Admin client ID').fill(admin.id);
    await page.getByLabel('Admin client secret').fill(admin.secret);
    await page.getByLabel('Admin client secret').press('Enter');
    const entry = page.locator('#shop-labtools');
    const table = entry.getByRole('table', { name: /^Recent imports of / });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    const rows = await table.getByRole('row').allTextContents();
    expect(rows[1]).toMatch(
      /labtools\.jsonl.*Refused: nothing committed.*more than --max-rejects 0.*4 read, 1 refused/,
    );
    expect(rows[2]).toMatch(/labtools\.jsonl.*Committed with refusals.*4 read, 3 imported, 1 refused/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The reports are folded; open the newest run's by keyboard.
    const summary = entry.locator('details.import-report summary').first();
    await tabToElement(page, summary, 'the refused records of the newest import');
    await page.keyboard.press('Enter');
    const refusedTable = entry.getByRole('table', { name: /^Refused records of labtools\.jsonl, import 2/ });
    await expect.poll(() => refusedTable.isVisible()).toBe(true);
    const refusedRows = await refusedTable.getByRole('row').allTextContents();
    expect(refusedRows).toHaveLength(2);
    expect(refusedRows[1]).toMatch(/^3BAD-1\/orderDetails\/orderUnit: /);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await checkLook(page, 'catalog-shop-imports')).toEqual([]);
    // On a phone the tables scroll inside their own box; the page does not.
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows a recorded BMEcat import's report: refused records, elements not kept, in BMEcat's words", async () => {
    const dataDir = path.join(directory, 'data');
    const shop = ['add', 'klemmen', '--name', 'Klemmen GmbH', '--default-tax', '0.19', '--data-dir', dataDir];
    expect(await shops(directory, shop)).toBe(0);
    await writeFile(path.join(directory, 'klemmen.xml'), KLEMMEN_BMECAT);
    const imported = await catalogImport(directory, [
      ...['klemmen.xml', '--shop', 'klemmen', '--data-dir', dataDir, '--max-rejects', '1'],
    ]);
    expect(imported.code).toBe(1);

    const admin = adminClient();
    const { page, errors } = await signedIn('/shops?shop=klemmen');
    await page.getByLabel('Admin client ID').fill(admin.id);
    await page.getByLabel('Admin client secret').fill(admin.secret);
    await page.getByLabel('Admin client secret').press('Enter');
    const entry = page.locator('#shop-klemmen');
    const table = entry.getByRole('table', { name: /^Recent imports of Klemmen GmbH/ });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toMatch(
      /klemmen\.xml.*BMEcat.*Committed with refusals.*2 read, 1 imported, 1 refused, 4 warnings/,
    );

    // The report is folded under a summary that says what it holds; open it by keyboard.
    const summary = entry.locator('details.import-report summary').first();
    expect(await summary.textContent()).toMatch(
      /^Import 1 \(klemmen\.xml, .+\): 1 refused record, 3 elements not kept, 1 note$/,
    );
    await tabToElement(page, summary, 'the report of the import');
    await page.keyboard.press('Enter');
    const report = entry.locator('details.import-report').first();
    await expect.poll(() => report.getAttribute('open')).toBe('');
    const counts = await report.locator('dl.import-counts').textContent();
    // Which catalog the file was, as its header said: kept, not listed as an element not kept.
    expect(counts).toMatch(/^CatalogK1, version 1SupplierKlemmen GmbH & Co\. KGFile madeby Klemmen PIM 2\.1Records/);
    expect(counts).toMatch(/Records read2.*Imported1.*Refused1/);
    // How the prices were taken: the article without TAX took the shop's default tax.
    expect(counts).toMatch(/Price typesnet_customer 1.*Default tax1 record without TAX took the shop’s/);
    const notes = report.getByRole('table', { name: 'Notes on klemmen.xml, import 1' });
    expect(await notes.locator('tbody tr').first().textContent()).toMatch(
      /^ARTICLE\/ARTICLE_FEATURES\/FEATURE.*feature AAB999 has no name/,
    );

    const refused = report.getByRole('table', { name: 'Refused records of klemmen.xml, import 1' });
    const refusedRows = await refused.getByRole('row').allInnerTexts();
    expect(refusedRows).toHaveLength(2);
    expect(refusedRows[0]).toMatch(/^Line\W+Supplier article id\W+Reason$/);
    const refusedCells = await refused.getByRole('row').nth(1).getByRole('cell').allTextContents();
    const refusedLine = await refused.getByRole('row').nth(1).getByRole('rowheader').textContent();
    expect(refusedLine).toBe(String(klemmenLine('<SUPPLIER_AID>KL-200') - 1));
    expect(refusedCells[0]).toBe('KL-200');
    expect(refusedCells[1]).toMatch(/^ARTICLE_ORDER_DETAILS\/ORDER_UNIT: /);

    const unkept = report.getByRole('table', { name: 'Elements of klemmen.xml, import 1 that Triad did not keep' });
    const unkeptRows = await Promise.all(
      (await unkept.locator('tbody tr').all()).map(async (row) => ({
        path: await row.getByRole('rowheader').textContent(),
        cells: await row.getByRole('cell').allTextContents(),
      })),
    );
    expect(unkeptRows).toEqual(
      expect.arrayContaining([
        { path: 'HEADER/CATALOG/TERRITORY', cells: ['2', String(klemmenLine('<TERRITORY>'))] },
        { path: 'ARTICLE/ARTICLE_DETAILS/SEGMENT', cells: ['1', String(klemmenLine('<SEGMENT>'))] },
        {
          path: expect.stringMatching(/^ARTICLE\/USER_DEFINED_EXTENSIONS\/.*\(user-defined extension\)$/) as string,
          cells: ['1', String(klemmenLine('<UDX.KLEMMEN.FARBE>'))],
        },
      ]),
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await report.scrollIntoViewIfNeeded();
    expect(await checkLook(page, 'catalog-import-report')).toEqual([]);

    // On a phone the page does not scroll sideways; the report's tables scroll in their own boxes.
    await page.setViewportSize(VIEWPORTS.phone);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(VIEWPORTS.phone.width);
    const summaryBox = await summary.boundingBox();
    expect((summaryBox?.x ?? 0) + (summaryBox?.width ?? Infinity)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    // (`checkLook` above judged both widths and both themes.)
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('works by keyboard alone and fits a 390-pixel-wide screen', async () => {
    const watched = await openWatchedPage(browser, VIEWPORTS.phone);
    const { page, errors } = watched;
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByLabel('Client ID').inputValue()).not.toBe('');
    await tabTo(page, 'button', 'Sign in');
    await page.keyboard.press('Enter');
    // The button is gone with the form: the focus goes to the search box, not back to the top.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('pen');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?q=pen$/);
    const all = await announcedTotal(page);
    // On a phone the filters start folded: unfold them with the keyboard.
    const filters = page.getByRole('navigation', { name: 'Filters' });
    expect(await filters.locator('details').getAttribute('open')).toBeNull();
    await tabToElement(page, filters.locator('summary'), 'the Filters summary');
    await page.keyboard.press('Enter');
    const firstShop = page.getByRole('region', { name: 'Shop' }).getByRole('link').first();
    await tabTo(page, 'link', (await firstShop.textContent()) ?? '');
    await page.keyboard.press('Enter');
    await expect.poll(() => announcedTotal(page)).toBeLessThan(all);
    // The followed link is gone with the old facets: the focus waits at the new total, not at the top.
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('result-count');
    expect(await checkLook(page, 'catalog-search-phone')).toEqual([]);
    const firstHit = page.locator('ol.hits h3 a').first();
    const description = (await firstHit.textContent()) ?? '';
    await tabTo(page, 'link', description);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(description);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goBack();
    await announcedTotal(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('loads at most 250 KB of compressed JavaScript for sign-in, search and an article', async () => {
    const watched = await openWatchedPage(browser);
    pages.push(watched);
    const { page, errors } = watched;
    const sizes: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) sizes.push(response.body().then((body) => gzipSync(body).length));
    });
    await page.goto(`${server.url}/?q=pen`);
    await expect.poll(() => page.getByLabel('Client ID').inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await announcedTotal(page);
    await page.locator('ol.hits h3 a').first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Prices by quantity' }).count()).toBe(1);
    const total = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
    console.info(`catalog JavaScript: ${sizes.length} files, ${total} bytes gzipped`);
    expect(sizes.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(250_000);
    expect(errors).toEqual([]);
  });

  it('asks to sign in again when the API no longer takes the token', async () => {
    const { page, errors } = await signedIn('/?q=pen');
    await announcedTotal(page);
    // What an expired token gets: the API's 401 problem.
    await page.route('**/api/articles?*', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 401, title: 'Unauthorized', detail: 'The token has expired' }),
      }),
    );
    await page.getByRole('combobox', { name: 'Search articles' }).fill('paper');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/session has ended/);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('says so when the client secret is wrong', async () => {
    const { page, errors } = await openWatchedPage(browser);
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByLabel('Client ID').inputValue()).not.toBe('');
    await page.getByLabel('Client secret').fill('wrong-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/wrong secret/);
    expect(await checkLook(page, 'catalog-sign-in-refused')).toEqual([]);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
