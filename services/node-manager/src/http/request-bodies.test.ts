import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { FamilyReply, NodeReply } from '../presenters/topology-presenter.js';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { ADMIN, useTestApp } from '../test-support/node-manager-test-app.js';

// useBodilessDelete and useStrictInputValidation, through the routes they guard.
describeEachDatabase<NodeManagerDatabase>('node-manager request bodies', (getDb) => {
  const t = useTestApp(getDb);
  const post = (url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('answers 204 to DELETE without a body whatever Content-Type it names (node, family, user)', async () => {
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
    ]) {
      const node = (await post('/api/topo/action/add-node', { name: 'app1@h', cookie: 'c1' })).json<NodeReply>();
      const family = (
        await post('/api/topo/node-family', {
          name: `fam${contentType.length}`,
          bootstrap_node_selection: 'random',
          bootstrap_strategy: 'none',
          bootstrap_strategy_opts: [],
        })
      ).json<FamilyReply>();
      await post('/api/users/add_user', { username: 'bob1', password: 'secret99' });
      const headers = { ...ADMIN, 'content-type': contentType };
      const node204 = await t.app.inject({ method: 'DELETE', url: `/api/topo/node/${node.id}`, headers });
      expect([contentType, node204.statusCode, node204.body]).toEqual([contentType, 204, '']);
      const family204 = await t.app.inject({
        method: 'DELETE',
        url: `/api/topo/node-family/${family.id}/force`,
        headers,
      });
      expect([contentType, family204.statusCode]).toEqual([contentType, 204]);
      const user = await t.app.inject({
        method: 'DELETE',
        url: '/api/users/delete_user/bob1',
        headers: { ...headers, 'content-length': '0' },
      });
      expect([contentType, user.statusCode, user.json()]).toEqual([contentType, 200, true]);
    }
  });

  it('still reads the body of a DELETE that has one', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/bookmark',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ bookmarks: [{ title: 'a', url: 'http://x/' }] }),
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/bookmark',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ bookmarks: [{ title: 'a' }] }),
    });
    expect(deleted.statusCode).toBe(200);
    const malformed = await t.app.inject({
      method: 'DELETE',
      url: '/api/bookmark',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: '{"bookmarks":',
    });
    expect(malformed.json()).toEqual({ error: 'json_syntax' });
  });

  it('refuses a number where a string is due instead of coercing it, and still converts query text', async () => {
    for (const [url, body] of [
      ['/api/users/add_user', { username: 12345, password: 'secret99' }],
      ['/api/users/add_user', { username: 'bob2', password: 123456 }],
      ['/api/topo/action/add-node', { name: 'a@h', cookie: 42 }],
      [
        '/api/topo/node-family',
        { name: true, bootstrap_node_selection: 'random', bootstrap_strategy: 'none', bootstrap_strategy_opts: [] },
      ],
    ] as const) {
      const response = await post(url, body);
      expect([url, response.statusCode, response.json()]).toEqual([url, 400, { error: 'invalid_request' }]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/users/list_users', headers: ADMIN })).json()).toEqual([
      'admin',
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/topo/node', headers: ADMIN })).json()).toEqual([]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/alarm?limit=5', headers: ADMIN });
    expect(limited.statusCode).toBe(200);
  });
});
