import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog, type ImportResult } from './commands/import-catalog.js';
import { CONTENT_SQLITE_FILE, openContentApiCore, type ContentApiCore } from './content-api-core.js';
import { generateCatalog } from './demo/generate-catalog.js';
import { CONTENT_MEDIA_TYPE } from './http/media-types.js';
import { startContentApiServer, type RunningContentApiServer } from './server.js';

const record = (supplierArticleId: string, description: string) =>
  JSON.stringify({
    supplierArticleId,
    description,
    descriptions: [{ lang: 'en', value: description }],
    currency: 'EUR',
    tax: { value: 19, decimalDigits: 2 },
    blockPrices: [{ lowerBound: 1, amount: { value: 995, decimalDigits: 2 } }],
    orderDetails: { orderUnit: 'C62', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
    classifications: [{ systemName: 'UNSPSC-7', groupId: '11111111', features: [] }],
  }) + '\n';

/** Whether another connection holds the file's write lock (a `BEGIN IMMEDIATE` that does not wait fails). */
function writeLockHeld(file: string): boolean {
  const probe = new BetterSqlite3(file);
  try {
    probe.pragma('busy_timeout = 0');
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    probe.close();
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('the content API started while a catalog import holds the SQLite write lock', () => {
  let directory: string;
  let importer: ContentApiCore | undefined;
  let server: RunningContentApiServer | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'triad-content-lock-'));
    const first = await startContentApiServer(
      { dataDir: directory, port: 0, demoArticles: 40, logLevel: 'silent' },
      { env: {} },
    );
    await first.close();
  });
  afterAll(async () => {
    await server?.close();
    await importer?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('starts, serves the committed catalog, and serves the import once it commits', async () => {
    // What `triad catalog import` does: its own store on the file, one shop's catalog replaced.
    importer = await openContentApiCore({ dataDir: directory });
    const shop = generateCatalog({ articles: 1, seed: 1 }).shops[0]!;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* file() {
      yield record('LOCK-1', 'zirconium lockstep spatula');
      await gate;
      yield record('LOCK-2', 'quartz lockstep cuvette');
    }
    const importing: Promise<ImportResult> = importCatalog(importer.backend, Readable.from(file()), {
      format: 'jsonl',
      shop,
      parseThread: 'inline',
    });
    const sqlite = path.join(directory, CONTENT_SQLITE_FILE);
    await until(() => writeLockHeld(sqlite), 'the import to take the write lock');

    server = await startContentApiServer(
      { dataDir: directory, port: 0, demoArticles: 40, logLevel: 'silent' },
      { env: {} },
    );
    expect(writeLockHeld(sqlite)).toBe(true);
    const notes = server.notes.join('\n');
    const id = /OAuth client id: (\S+)/.exec(notes)![1]!;
    const secret = /OAuth client secret: (\S+)/.exec(notes)![1]!;
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const issued = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });
    expect(issued.status).toBe(200);
    const { access_token: token } = (await issued.json()) as { access_token: string };
    const search = async (q: string) => {
      const response = await fetch(`${server!.url}/api/articles?limit=100&q=${encodeURIComponent(q)}`, {
        headers: { authorization: `Bearer ${token}`, accept: CONTENT_MEDIA_TYPE, 'x-svc-requisitioner-id': 'me' },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { total: number };
    };
    expect((await search('')).total).toBe(40);
    expect((await search('lockstep')).total).toBe(0);

    release();
    const result = await importing;
    expect(result).toMatchObject({ committed: true, imported: 2 });
    await until(async () => (await search('lockstep')).total === 2, "the import's articles to be served");
  });
});
