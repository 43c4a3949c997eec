/**
 * Several content API instances on one PostgreSQL database, as behind a load balancer: each is a
 * real server on a loopback port with its own connections and in-memory search state.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, describePostgresOnly, type ScratchDatabase } from '@triad/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCatalogCommand } from './cli/catalog-command.js';
import { CONTENT_MEDIA_TYPE, REQUISITIONER_HEADER } from './http/media-types.js';
import { startContentApiServer, type RunningContentApiServer } from './server.js';
import { runCommands } from './test-support/run-commands.js';

const READ = { id: 'shared-reader', secret: 'the same read secret on every instance' };
const ADMIN = { id: 'shared-admin', secret: 'the same admin secret on every instance' };

async function token(server: RunningContentApiServer, client: { id: string; secret: string }): Promise<string> {
  const reply = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret }),
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { access_token: string }).access_token;
}

function search(server: RunningContentApiServer, bearer: string, query: string): Promise<Response> {
  return fetch(`${server.url}/api/articles?${query}`, {
    headers: { authorization: `Bearer ${bearer}`, accept: CONTENT_MEDIA_TYPE, [REQUISITIONER_HEADER]: 'tester' },
  });
}

/** Polls `probe` until it holds (10 s at most). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describePostgresOnly('content API instances on one database', (_getDb, serverUrl) => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'content-instances-'));
  let scratch: ScratchDatabase | undefined;
  let databaseUrl = '';
  const servers: RunningContentApiServer[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl, 'triad_content_instances');
    databaseUrl = scratch.url;
    for (let i = 0; i < 2; i += 1) {
      servers.push(
        await startContentApiServer(
          {
            dataDir: path.join(directory, `instance-${i}`),
            databaseUrl,
            port: 0,
            demo: false,
            logLevel: 'silent',
            oauthClientId: READ.id,
            oauthClientSecret: READ.secret,
            adminClientId: ADMIN.id,
            adminClientSecret: ADMIN.secret,
          },
          { env: {} },
        ),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await scratch?.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('accepts on every instance a token issued by any of them', async () => {
    const [first, second] = servers as [RunningContentApiServer, RunningContentApiServer];
    const fromFirst = await token(first, READ);
    const fromSecond = await token(second, READ);
    expect((await search(second, fromFirst, 'limit=1')).status).toBe(200);
    expect((await search(first, fromSecond, 'limit=1')).status).toBe(200);
    const keys = (await (await fetch(`${second.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(keys.keys).toHaveLength(2);
  });

  it('lists on one instance a shop added through another', async () => {
    const [first, second] = servers as [RunningContentApiServer, RunningContentApiServer];
    const added = await fetch(`${first.url}/admin/business-shops`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token(first, ADMIN)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'shared-shop', name: 'Shared shop' }),
    });
    expect(added.status).toBe(201);
    const listed = await fetch(`${second.url}/api/business-shops`, {
      headers: {
        authorization: `Bearer ${await token(second, READ)}`,
        accept: CONTENT_MEDIA_TYPE,
        [REQUISITIONER_HEADER]: 'tester',
      },
    });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain('shared-shop');
  });

  it('serves from every instance a catalog the command line imported, and its next version', async () => {
    const bearer = await token(servers[0]!, READ);
    const file = path.join(directory, 'catalog.jsonl');
    const importFile = async (description: string) => {
      const lines = [1, 2, 3].map((n) =>
        JSON.stringify({
          supplierArticleId: `item-${n}`,
          description: `${description} number ${n}`,
          descriptions: [{ lang: 'en', value: `${description} number ${n}` }],
          manufacturerName: 'Acme',
          currency: 'EUR',
          tax: { value: 19, decimalDigits: 2 },
          blockPrices: [{ lowerBound: 1, amount: { value: 100 * n, decimalDigits: 2 } }],
          orderDetails: { orderUnit: 'C62', minimumOrderQuantity: 1, orderQuantityInterval: 1, priceQuantity: 1 },
        }),
      );
      writeFileSync(file, `${lines.join('\n')}\n`);
      const run = await runCommands(directory, (io) => [createCatalogCommand(io, { env: {} })], [
        'catalog',
        'import',
        file,
        '--shop',
        'shared-shop',
        '--database-url',
        databaseUrl,
      ]);
      expect(run.code, run.err).toBe(0);
    };
    const totalOf = async (server: RunningContentApiServer, q: string) => {
      const reply = await search(server, bearer, `q=${q}`);
      return reply.status === 200 ? ((await reply.json()) as { total: number }).total : -1;
    };
    await importFile('sturdy hammer');
    for (const server of servers) {
      await eventually(async () => (await totalOf(server, 'hammer')) === 3, `the import on ${server.url}`);
    }
    await importFile('quiet drill');
    for (const server of servers) {
      await eventually(async () => (await totalOf(server, 'drill')) === 3, `the new version on ${server.url}`);
      expect(await totalOf(server, 'hammer')).toBe(0);
    }
  });
});
