import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@triad/db';
import { createScratchDatabase, type ScratchDatabase } from '@triad/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortRun } from '../apps/cli/src/test-support/free-ports.js';
import { REPOSITORY_ROOT, stopTriad, waitFor, type TriadProcess } from '../apps/cli/src/test-support/serve-process.js';
import { sampleTemplate } from '../services/templates/src/test-support/sample-templates.js';
import { describeWithDeployTools } from './describe-with-deploy-tools.js';
import { extractRelease, hasCommit, previousReleaseCommit, startTriadIn } from './release-tree.js';

/** Three services from the sources (tsx compiles on the fly), twice, on a busy 2-core machine. */
const START_BUDGET_MS = 150_000;
const READY_LINE = 'Press Ctrl+C to stop.';
const commit = await previousReleaseCommit(REPOSITORY_ROOT);
const present = await hasCommit(REPOSITORY_ROOT, commit);
const MISSING =
  `commit ${commit} of deploy/previous-release is not in this clone: ` +
  'fetch the full history (git fetch --unshallow)';
/** The content API's media type (one release's interface; a literal, so the test reads as a client). */
const CONTENT_MEDIA_TYPE = 'application/vnd.vendor.content.v1+json';

const describeWithHistory = (title: string, body: (postgresUrl: string) => void) => {
  if (present) describeWithDeployTools(title, { programs: ['git', 'tar'], postgres: true }, body);
  else if (process.env['TRIAD_REQUIRE_SERVICES'] === '1')
    describe(title, () => {
      it('requires the previous release in the git history because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(MISSING);
      });
    });
  else describe.skip(`${title} (skipped: ${MISSING})`, () => body(''));
};

/** The `msg` and error message of each error line (level 50) a JSON-logging `triad serve` wrote. */
function errorsLogged(triad: TriadProcess | undefined): string[] {
  return (triad?.stderr() ?? '')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"level":50'))
    .map((line) => {
      const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
      return `${entry.msg ?? ''}: ${entry.err?.message ?? ''}`;
    });
}

const ADMIN = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

describeWithHistory('the previous release on a schema migrated by this one', (postgresUrl) => {
  let directory = '';
  let scratch: ScratchDatabase | undefined;
  let previous: TriadProcess | undefined;
  let base = 0;
  let migratedByCurrent: string[] = [];

  const environment = (dataDir: string, databaseUrl: string): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    TRIAD_DATA_DIR: dataDir,
    TRIAD_LOG_FORMAT: 'json',
    TRIAD_ADMIN_PASSWORD: 'Admin123',
    TRIAD_SCRYPT_COST: '16',
    TRIAD_TEMPLATES_WRITE_ACCESS: 'open',
    TRIAD_OAUTH_CLIENT_ID: 'reader',
    TRIAD_OAUTH_CLIENT_SECRET: 'reader-secret-1',
    TRIAD_CONTENT_ADMIN_CLIENT_ID: 'operator',
    TRIAD_CONTENT_ADMIN_CLIENT_SECRET: 'operator-secret-12345',
  });

  /**
   * Starts `triad serve` in `root` on three free ports from `base` and waits for its ready line.
   * Another test may take one of those ports between the check and the start: then it tries again
   * on another run of ports (at most three times).
   */
  const serve = async (root: string, env: Record<string, string>, what: string) => {
    for (let attempt = 1; ; attempt += 1) {
      const triad = startTriadIn(root, ['serve', '--port-base', String(base), '--no-demo'], env);
      try {
        await waitFor(triad, () => triad.stdout().includes(READY_LINE), START_BUDGET_MS, what);
        return triad;
      } catch (error) {
        if (attempt >= 3 || !triad.stderr().includes('EADDRINUSE')) throw error;
        base = await freePortRun(3);
      }
    }
  };

  beforeAll(
    async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'triad-previous-release-'));
      const tree = path.join(directory, 'previous');
      await extractRelease(REPOSITORY_ROOT, commit, tree);
      scratch = await createScratchDatabase(postgresUrl, 'triad_prev');
      const url = scratch.url;
      base = await freePortRun(3);
      // The upgrade's first step: the new release starts (and migrates) before the old one restarts.
      const current = await serve(
        REPOSITORY_ROOT,
        environment(path.join(directory, 'current'), url),
        'the current release',
      );
      expect(await stopTriad(current)).toBe(0);
      const database = openDatabase({ url, maxConnections: 1 });
      try {
        const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_name like '%migrations'`.execute(database.db);
        migratedByCurrent = rows.map((r) => r.name).sort();
      } finally {
        await database.close();
      }
      previous = await serve(tree, environment(path.join(directory, 'previous-data'), url), 'the previous release');
    },
    2 * START_BUDGET_MS + 60_000,
  );

  afterAll(async () => {
    if (previous) await stopTriad(previous);
    await scratch?.drop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const at = (offset: number, route: string) => `http://127.0.0.1:${base + offset}${route}`;

  it('starts every service of the previous release on the tables the current one made', () => {
    expect(migratedByCurrent).toEqual(
      expect.arrayContaining(['content_migrations', 'node_manager_migrations', 'templates_migrations']),
    );
    expect(previous?.stderr()).not.toMatch(/corrupted migrations/);
  });

  it('template service: writes and reads a template', async () => {
    const created = await fetch(at(2, '/templates'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleTemplate({ templateId: 'Upgrade Switch' })),
    });
    expect(created.status).toBe(201);
    const read = await fetch(at(2, `/templates/${encodeURIComponent('Upgrade Switch')}`));
    expect(read.status).toBe(200);
  });

  it('node manager: signs in, stores a bookmark and reads it back', async () => {
    const bookmarks = [{ title: 'Upgrade notes', url: 'https://example.com/notes' }];
    const saved = await fetch(at(0, '/api/bookmark'), {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ bookmarks }),
    });
    expect(saved.status).toBe(200);
    const read = await fetch(at(0, '/api/bookmark'), { headers: ADMIN });
    expect(await read.json()).toEqual({ bookmarks });
  });

  it('content API: creates a shop with an admin token and searches with a read token', async () => {
    const token = async (id: string, secret: string) => {
      const reply = await fetch(at(1, '/oauth/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
      });
      expect(reply.status).toBe(200);
      return `Bearer ${((await reply.json()) as { access_token: string }).access_token}`;
    };
    const operator = await token('operator', 'operator-secret-12345');
    const created = await fetch(at(1, '/admin/business-shops'), {
      method: 'POST',
      headers: { authorization: operator, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'upgrade-shop', name: 'Upgrade shop' }),
    });
    expect(created.status).toBe(201);
    const listed = await fetch(at(1, '/admin/business-shops'), { headers: { authorization: operator } });
    expect(JSON.stringify(await listed.json())).toContain('upgrade-shop');
    const search = await fetch(at(1, '/api/articles?q=pen&limit=3'), {
      headers: {
        authorization: await token('reader', 'reader-secret-1'),
        accept: CONTENT_MEDIA_TYPE,
        'x-svc-requisitioner-id': 'upgrade-test',
      },
    });
    // On failure, the previous release's logged errors say which query met the new schema.
    expect({ status: search.status, errors: errorsLogged(previous) }).toEqual({ status: 200, errors: [] });
    expect(await search.json()).toMatchObject({ total: 0 });
  });
});
