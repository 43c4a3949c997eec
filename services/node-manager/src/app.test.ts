import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@triad/db';
import { ADMIN, buildTestApp, type TestApp } from './test-support/node-manager-test-app.js';
import { nodeManagerProblems, reasonOf } from './errors.js';

describe('node-manager app', () => {
  let dir = '';
  let database: Database;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nm-app-'));
    database = openDatabase({ sqliteFile: path.join(dir, 'db.sqlite') });
    t = await buildTestApp(database, { bodyLimit: 2048 });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves an OpenAPI document naming the spec paths, and the docs page, without credentials', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const p of ['/api/alarm', '/api/topo/node-stat', '/api/users/add_user', '/api/bookmark/', '/api/tags/user'])
      expect(Object.keys(doc.paths)).toContain(p);
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
    expect(response.json()).toEqual({ error: 'body_too_large' });
  });

  it('derives every wire reason from its catalogue code', () => {
    for (const code of Object.keys(nodeManagerProblems.definitions)) expect(reasonOf(code)).toMatch(/^[a-z_]+$/);
    expect(reasonOf('NM_ERR_USER_NOT_FOUND')).toBe('user_not_found');
  });
});
