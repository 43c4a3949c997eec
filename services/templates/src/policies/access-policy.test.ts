import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import Fastify from 'fastify';
import { PasswordHashBusyError, problemHandler, type ProblemDocument } from '@triad/service-kit';
import { accessHook } from '../http/access-hook.js';
import { AccessPolicy } from './access-policy.js';
import { TokenRepository } from '../repositories/token-repository.js';
import { sampleTemplate } from '../test-support/sample-templates.js';
import { buildTestApp } from '../test-support/templates-test-app.js';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';

describeEachDatabase<TemplatesDatabase>('registry access with API tokens', (getDb) => {
  let app: FastifyInstance;
  let tokens: TokenRepository;
  const made: Record<string, string> = {};
  beforeAll(async () => {
    app = await buildTestApp(getDb(), { writeAccess: 'token' });
    tokens = new TokenRepository(getDb());
    for (const scope of ['read', 'write', 'admin'] as const)
      made[scope] = (await tokens.create(`t-${scope}`, scope)).token;
  });
  afterAll(async () => {
    await app?.close();
  });
  const post = (token?: string, templateId = 'Guarded') =>
    app.inject({
      method: 'POST',
      url: '/templates',
      payload: sampleTemplate({ templateId }),
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('refuses a write without a token (401), with a read token (403), and takes a write token', async () => {
    const none = await post();
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="triad-templates"');
    expect(none.json<ProblemDocument>().detail).toContain('triad templates tokens add');
    const read = await post(made['read']);
    expect(read.statusCode).toBe(403);
    expect(read.json<ProblemDocument>().code).toBe('TPL_ERR_FORBIDDEN');
    expect((await post(made['write'])).statusCode).toBe(201);
    // Nothing was stored by the refused attempts: one version exists.
    const list = await app.inject('/templates?prefix=Guarded');
    expect(list.json<{ total: number }>().total).toBe(1);
    // Reads stay open by default.
    expect((await app.inject('/templates/Guarded')).statusCode).toBe(200);
  });

  it('stops taking a revoked token at once, even one checked a moment ago', async () => {
    const { record, token } = await tokens.create('short-lived', 'write');
    expect((await post(token, 'Revoked')).statusCode).toBe(201);
    expect(await tokens.revoke(record.id)).toBe(true);
    const after = await app.inject({
      method: 'DELETE',
      url: '/templates/Revoked',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.statusCode).toBe(401);
    expect((await app.inject('/templates/Revoked')).statusCode).toBe(200);
  });

  it('keeps only a scrypt hash of each token, never the token', async () => {
    const rows = await getDb().db.selectFrom('api_tokens').select(['id', 'secret_hash']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row.secret_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
      for (const token of Object.values(made)) expect(row.secret_hash).not.toContain(token.slice(21));
    }
    expect(await tokens.check('tdt_0000000000000000_not-a-real-token-at-all-0000000000000000000')).toBeUndefined();
    expect(await tokens.check(made['write']!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeUndefined();
  });

  it('guards reads too when readAccess is token', async () => {
    // A console build of one page: the console is served whatever the registry's access.
    const consoleRoot = await mkdtemp(path.join(tmpdir(), 'triad-console-'));
    await writeFile(path.join(consoleRoot, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const closed = await buildTestApp(getDb(), { readAccess: 'token', writeAccess: 'token' }, { consoleRoot });
    try {
      expect((await closed.inject('/templates')).statusCode).toBe(401);
      expect(
        (await closed.inject({ url: '/templates', headers: { authorization: `Bearer ${made['read']}` } })).statusCode,
      ).toBe(200);
      expect((await closed.inject('/healthz')).statusCode).toBe(200);
      expect((await closed.inject('/')).statusCode).toBe(200);
    } finally {
      await closed.close();
      await rm(consoleRoot, { recursive: true, force: true });
    }
  });
});

it('answers a full queue of token checks with 503 TPL_ERR_TOKEN_CHECKS_BUSY and Retry-After', async () => {
  // Stands in for 65 first checks of tokens arriving at once (each a 16,384-cost scrypt): the
  // repository's hasher refuses the one beyond its queue with PasswordHashBusyError.
  const tokens: Pick<TokenRepository, 'check'> = {
    check: () => Promise.reject(new PasswordHashBusyError(64)),
  };
  const policy = new AccessPolicy({ tokens, readAccess: 'open', writeAccess: 'token' });
  const app = Fastify();
  await app.register(problemHandler, {});
  app.addHook('onRequest', accessHook(policy, ['/templates']));
  app.post('/templates', () => ({ stored: true }));
  try {
    const reply = await app.inject({
      method: 'POST',
      url: '/templates',
      headers: { authorization: `Bearer tdt_${'0'.repeat(16)}_${'a'.repeat(43)}` },
    });
    expect(reply.statusCode).toBe(503);
    expect(reply.json<ProblemDocument>().code).toBe('TPL_ERR_TOKEN_CHECKS_BUSY');
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.headers['www-authenticate']).toBeUndefined();
  } finally {
    await app.close();
  }
});
