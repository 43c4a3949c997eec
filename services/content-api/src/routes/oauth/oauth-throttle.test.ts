import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ContentTables } from '../../migrations/content-tables.js';
import { buildTestContentApp, TEST_ADMIN, type TestContentApp } from '../../test-support/content-test-app.js';

describeEachDatabase<ContentTables>('POST /oauth/token throttling', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), {
      articles: 10,
      config: {
        adminClientId: TEST_ADMIN.id,
        adminClientSecret: TEST_ADMIN.secret,
        tokenFailureBurst: 5,
        tokenFailureWindowSeconds: 600, // one try back every 2 min: none comes back during the test
      },
    });
  });
  afterAll(async () => {
    await t?.app.close();
  });

  const token = (clientId: string, secret: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      payload: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    });

  it('answers 429 with Retry-After after the burst of wrong secrets, even to the right one', async () => {
    for (let i = 0; i < 5; i += 1) expect((await token('test-client', `wrong-${i}`, '10.0.0.1')).statusCode).toBe(401);
    for (const address of ['10.0.0.1', '10.0.0.2']) {
      const refused = await token('test-client', 'test-secret-123', address);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json()).toMatchObject({ code: 'CONTENT_ERR_TOKEN_THROTTLED', status: 429 });
    }
    // Another client from another address is not held.
    expect((await token(TEST_ADMIN.id, TEST_ADMIN.secret, '10.0.0.3')).statusCode).toBe(200);
    // The address that failed is held for any client id.
    expect((await token(TEST_ADMIN.id, TEST_ADMIN.secret, '10.0.0.1')).statusCode).toBe(429);
  });

  it('lets a client with the right secret ask as often as it likes', async () => {
    for (let i = 0; i < 12; i += 1)
      expect((await token(TEST_ADMIN.id, TEST_ADMIN.secret, '10.0.1.1')).statusCode).toBe(200);
  });
});
