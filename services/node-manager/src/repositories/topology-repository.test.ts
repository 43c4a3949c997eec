import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { CookieCipher, CookieSealError } from '../secrets/cookie-cipher.js';
import { ADMIN, useTestApp } from '../test-support/node-manager-test-app.js';
import type { NodeManagerDatabase } from './node-manager-tables.js';
import { TopologyRepository } from './topology-repository.js';

describeEachDatabase<NodeManagerDatabase>('node-manager cookies at rest', (getDb) => {
  const t = useTestApp(getDb);
  const storedCookies = async () =>
    (await getDb().db.selectFrom('nm_nodes').select(['name', 'cookie']).orderBy('name').execute()).map(
      (row) => row.cookie,
    );

  it('stores a node cookie sealed, never in clear, and never shows it', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/topo/action/add-node',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'app1@h', cookie: 'rce_grade_cookie' }),
    });
    expect(added.body).not.toContain('rce_grade_cookie');
    const [stored] = await storedCookies();
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain('rce_grade_cookie');
    expect((await t.core.topologyStore.listNodes())[0]?.cookie).toBe('rce_grade_cookie');
  });

  it('seals plain-text cookies of older versions, then rotates them to a new key in one pass', async () => {
    const key = randomBytes(32);
    const store = new TopologyRepository(getDb(), Date.now, new CookieCipher([key]));
    await t.core.topology.addNode('a@h', 'cookie_a');
    // As an older version stored it.
    await getDb().db.updateTable('nm_nodes').set({ cookie: 'cookie_a' }).execute();
    expect(await store.resealCookies()).toBe(1);
    expect(await store.resealCookies()).toBe(0);
    const [sealed] = await storedCookies();
    expect(sealed).toMatch(/^enc:v1:/);

    const newKey = randomBytes(32);
    expect(await store.resealCookies(new CookieCipher([newKey, key]))).toBe(1);
    const rotated = new TopologyRepository(getDb(), Date.now, new CookieCipher([newKey]));
    expect((await rotated.listNodes())[0]?.cookie).toBe('cookie_a');
    // The old key alone opens nothing any more, and a failed reseal changes nothing.
    const stale = new TopologyRepository(getDb(), Date.now, new CookieCipher([key]));
    await expect(stale.resealCookies()).rejects.toThrow(CookieSealError);
    expect(await storedCookies()).not.toEqual([sealed]);
    expect((await rotated.listNodes())[0]?.cookie).toBe('cookie_a');
  });
});
