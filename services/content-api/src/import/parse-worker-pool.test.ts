import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLinesCatalog } from '../demo/catalog-writers.js';
import { generateCatalog } from '../demo/generate-catalog.js';
import { unpackItems } from './packed-items.js';
import type { ParseReply, ParseRequest } from './parse-piece.js';
import { ParseWorkerPool } from './parse-worker-pool.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const template = [...generateCatalog({ articles: 4, seed: 4 }).articles()][0]!;

/** A piece of JSON Lines: one article per id. */
function lines(ids: readonly string[]): ParseRequest {
  const text = [...jsonLinesCatalog(ids.map((id) => ({ ...template, supplierArticleId: id })))].join('');
  return { kind: 'lines', data: new Uint8Array(Buffer.from(text)).buffer };
}

function idsOf(reply: ParseReply, shopId: string): string[] {
  if (reply.kind !== 'items') throw new Error(`the piece failed: ${reply.message}`);
  return unpackItems(reply.items, shopId).map((item) =>
    'article' in item ? item.article.id : `failed at ${item.line}`,
  );
}

describe('ParseWorkerPool', () => {
  const pool = new ParseWorkerPool(2);
  beforeAll(() => pool.whenStarted());
  afterAll(() => pool.close());

  it('answers each message from whichever worker took it, for the shop it names', async () => {
    const shops = ['labtools', 'office-direct', 'cz-technik'];
    // Thirty pieces of three shops at once: the replies of both workers interleave.
    const posted = Array.from({ length: 30 }, (_, n) => {
      const shopId = shops[n % shops.length]!;
      const request = lines([`a${n}`, `b${n}`]);
      return { shopId, n, reply: pool.parse({ request, shopId, shop: shopId }, [request.data]) };
    });
    for (const { shopId, n, reply } of posted)
      expect(idsOf(await reply, shopId)).toEqual([`${shopId}:a${n}`, `${shopId}:b${n}`]);
    expect(pool.started).toBe(2);
  });

  it('keeps its workers started from one parse to the next', async () => {
    expect(pool.started).toBe(2);
    const request = lines(['again']);
    expect(
      idsOf(await pool.parse({ request, shopId: 'labtools', shop: 'labtools' }, [request.data]), 'labtools'),
    ).toEqual(['labtools:again']);
    expect(pool.started).toBe(2);
  });

  it('rejects the messages of a worker that fails, and starts another in its place', async () => {
    // A message without a request throws in the worker's handler: the thread ends with that error.
    await expect(pool.parse(null as never)).rejects.toThrow();
    const request = lines(['after']);
    expect(
      idsOf(await pool.parse({ request, shopId: 'labtools', shop: 'labtools' }, [request.data]), 'labtools'),
    ).toEqual(['labtools:after']);
  });

  it('lets its workers go after a while without a parse, and starts new ones for the next', async () => {
    const brief = new ParseWorkerPool(1, 50);
    try {
      const first = lines(['first']);
      await brief.parse({ request: first, shopId: 'labtools', shop: 'labtools' }, [first.data]);
      expect(brief.started).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(brief.started).toBe(0);
      const next = lines(['next']);
      const reply = await brief.parse({ request: next, shopId: 'labtools', shop: 'labtools' }, [next.data]);
      expect(idsOf(reply, 'labtools')).toEqual(['labtools:next']);
    } finally {
      await brief.close();
    }
  });

  it('lets go of workers that started and were never given a piece', async () => {
    const unused = new ParseWorkerPool(1, 50);
    try {
      await unused.whenStarted();
      expect(unused.started).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(unused.started).toBe(0);
    } finally {
      await unused.close();
    }
  });

  it('refuses a size below one', () => {
    expect(() => new ParseWorkerPool(0)).toThrow(/1 or more/);
  });
});

/** Runs `script` (an ES module from the sources) in a process of its own; what it printed, once it ended. */
function runAlone(script: string): string {
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  // A process its idle workers keep alive never ends: the run times out.
  expect(run.error).toBeUndefined();
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.trim();
}

describe('the shared pool', () => {
  const module = (name: string) => JSON.stringify(path.join(here, name));
  /** The start of an ES module that makes `line`: one article of JSON Lines, as bytes. */
  const oneLine = `
      import { jsonLinesCatalog } from ${module('../demo/catalog-writers.ts')};
      import { generateCatalog } from ${module('../demo/generate-catalog.ts')};
      const articles = [...generateCatalog({ articles: 1, seed: 4 }).articles()];
      const line = Buffer.from([...jsonLinesCatalog(articles)].join(''));`;

  it('does not keep a process alive once its parses are answered', () => {
    const script = `${oneLine}
      import { sharedParseWorkers } from ${module('parse-worker-pool.ts')};
      const data = new Uint8Array(line).buffer;
      const request = { kind: 'lines', data };
      const reply = await sharedParseWorkers().parse({ request, shopId: 's', shop: 's' }, [data]);
      console.log(reply.kind, sharedParseWorkers().started);`;
    expect(runAlone(script)).toMatch(/^items [1-4]$/);
  });

  it('does not keep a process alive after a parse its workers had no part in', () => {
    // One line: parsed on the importing thread while the workers start, none of them posted a piece.
    const script = `${oneLine}
      import { Readable } from 'node:stream';
      import { parseCatalog } from ${module('parse-catalog.ts')};
      let n = 0;
      const input = Readable.from([line]);
      for await (const item of parseCatalog(input, { format: 'jsonl', shopId: 's' })) n += 'article' in item ? 1 : 0;
      console.log('parsed', n);`;
    expect(runAlone(script)).toBe('parsed 1');
  });
});
