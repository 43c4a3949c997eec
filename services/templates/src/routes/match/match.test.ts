import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { buildTestApp, clearTemplates } from '../../test-support/templates-test-app.js';
import { sampleTemplate } from '../../test-support/sample-templates.js';
import type { TemplateListReply } from '../../test-support/template-replies.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

describeEachDatabase<TemplatesDatabase>('POST /match', (getDb) => {
  let app: FastifyInstance;
  const match = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    app.inject({
      method: 'POST',
      url: '/match',
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      headers,
    });
  const names = (response: LightMyRequestResponse) =>
    response.json<TemplateListReply>().items.map((i) => `${i.templateId}@${i.templateVersion}`);

  beforeAll(async () => {
    app = await buildTestApp(getDb());
    await clearTemplates(getDb());
    const store = async (options: Parameters<typeof sampleTemplate>[0]) => {
      const response = await app.inject({ method: 'POST', url: '/templates', payload: sampleTemplate(options) });
      expect(response.statusCode).toBe(201);
    };
    await store({
      templateId: 'ET200SP',
      templateVersion: '1.0.0',
      rangerFilter: { vendorID: '^0x002A$', deviceID: '^0x031[3-5]$' },
    });
    await store({
      templateId: 'ET200SP',
      templateVersion: '1.1.0',
      rangerFilter: { vendorID: '^0x002A$', deviceID: '^0x0313$' },
    });
    await store({ templateId: 'Scalance', templateVersion: '2.0.0', rangerFilter: { description: 'SCALANCE X2' } });
    await store({ templateId: 'No Filter', templateVersion: '1.0.0' });
    await store({ templateId: 'Runaway', templateVersion: '1.0.0', rangerFilter: { description: '^(a+)+$' } });
    await store({
      templateId: 'Lookbehind',
      templateVersion: '1.0.0',
      rangerFilter: { description: '(?<=SIMATIC )NET' },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('returns every matching version, newest first, when all declared filters match', async () => {
    const response = await match({ vendorID: '0x002A', deviceID: '0x0313' });
    expect(response.statusCode).toBe(200);
    expect(names(response)).toEqual(['ET200SP@1.1.0', 'ET200SP@1.0.0']);
    expect(response.json<TemplateListReply>().items.map((i) => i.latest)).toEqual([true, false]);
  });

  it('matches only the versions whose patterns accept the device', async () => {
    expect(names(await match({ vendorID: '0x002A', deviceID: '0x0314' }))).toEqual(['ET200SP@1.0.0']);
  });

  it('does not match when a declared filter field was not sent', async () => {
    expect(names(await match({ deviceID: '0x0313' }))).toEqual([]);
  });

  it('matches sysDescr patterns anywhere in the description and ignores undeclared fields', async () => {
    expect(
      names(
        await match({ description: 'Siemens, SIMATIC NET, SCALANCE X204-2, 6GK5 204-2BB10-2AA3', deviceID: '0x1' }),
      ),
    ).toEqual(['Scalance@2.0.0']);
  });

  it('never matches a template without rangerFilter', async () => {
    const all = names(await match({ description: 'x', vendorID: '0x0', deviceID: '0x0' }));
    expect(all).not.toContain('No Filter@1.0.0');
  });

  it('runs a catastrophic-backtracking pattern under RE2 and answers correctly', async () => {
    // 2^2000 paths for a backtracking engine; linear for RE2.
    const slow = await match({ description: 'a'.repeat(2000) + 'b' });
    expect(slow.statusCode).toBe(200);
    expect(names(slow)).toEqual([]);
    expect(names(await match({ description: 'aaaa' }))).toEqual(['Runaway@1.0.0']);
  });

  it('never matches a template whose pattern RE2 cannot compile', async () => {
    expect(names(await match({ description: 'SIMATIC NET' }))).toEqual([]);
  });

  it('refuses an empty device, unknown fields and non-hex ids with 400', async () => {
    for (const body of [{}, { serial: '1' }, { deviceID: 'not hex' }]) {
      const response = await match(body);
      expect(response.statusCode).toBe(400);
      expect(response.json<ProblemDocument>().code).toBe('SVC_ERR_REQUEST_VALIDATION');
    }
  });

  it('refuses YAML with 415, bodies over 1 MiB with 413 and too-deep JSON with 400', async () => {
    expect((await match('description: x', { 'content-type': 'application/yaml' })).statusCode).toBe(415);
    const plain = await match('{"description":"SCALANCE X204"}', { 'content-type': 'text/plain' });
    expect(plain.statusCode).toBe(415);
    expect(plain.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(plain.json<ProblemDocument>().code).toBe('SVC_ERR_MEDIA_TYPE_UNSUPPORTED');
    const big = await match({ description: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json<ProblemDocument>()['limit']).toBe(1024 * 1024);
    const deep = await match('{"description":' + '['.repeat(65) + ']'.repeat(65) + '}');
    expect(deep.statusCode).toBe(400);
    expect(deep.json<ProblemDocument>().code).toBe('SVC_ERR_JSON_TOO_DEEP');
  });
});
