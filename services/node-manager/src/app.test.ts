import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { ADMIN, buildTestApp, type TestApp } from './test-support/node-manager-test-app.js';
import { checkOpenApiCoverage } from '@triad/service-kit';
import type { NodeManagerDatabase } from './repositories/node-manager-tables.js';
import { nodeManagerProblems, reasonOf } from './errors.js';

/** The parts of the OpenAPI document these tests read. */
interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } | undefined>
  >;
}

describe('node-manager app', () => {
  let dir = '';
  let database: Database<NodeManagerDatabase>;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nm-app-'));
    database = openDatabase<NodeManagerDatabase>({ sqliteFile: path.join(dir, 'db.sqlite') });
    t = await buildTestApp(database, { bodyLimit: 2048 });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('documents every route it registers and nothing else, each complete and with its client errors', async () => {
    const coverage = await checkOpenApiCoverage(t.app);
    expect(Object.keys(coverage).length).toBeGreaterThanOrEqual(4);
    // Every list the check makes (undocumented, unregistered, incomplete, trailing slashes ...) is empty.
    for (const [check, findings] of Object.entries(coverage)) expect([check, findings]).toEqual([check, []]);
  });

  it('serves an OpenAPI document naming the spec paths with {error} failures, and the docs page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
    for (const p of ['/api/alarm', '/api/topo/node-stat', '/api/users/add_user', '/api/bookmark', '/api/tags/user'])
      expect(Object.keys(doc.paths)).toContain(p);
    const failures = doc.paths['/api/topo/node/{node_id}']?.get?.responses ?? {};
    expect(Object.keys(failures).sort()).toEqual(['200', '400', '401', '404', '500']);
    expect(failures['404']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorReason',
    });
    expect((await t.app.inject({ method: 'GET', url: '/docs/' })).statusCode).toBe(200);
  });

  it('refuses bodies over the limit with 413 {error: body_too_large}', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/bookmark',
      headers: { 'content-type': 'application/json', ...ADMIN },
      payload: JSON.stringify({ bookmarks: [{ title: 'x'.repeat(4000), url: 'u' }] }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<{ error: string }>()).toEqual({ error: 'body_too_large' });
  });

  it('derives every wire reason from its catalogue code', () => {
    for (const code of Object.keys(nodeManagerProblems.definitions)) expect(reasonOf(code)).toMatch(/^[a-z_]+$/);
    expect(reasonOf('NM_ERR_USER_NOT_FOUND')).toBe('user_not_found');
  });
});
