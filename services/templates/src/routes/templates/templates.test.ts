import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ProblemDocument } from '@triad/service-kit';
import { clearTemplates, buildTestApp } from '../../test-support/templates-test-app.js';
import { sampleTemplate, sampleTemplateYaml } from '../../test-support/sample-templates.js';
import type {
  ProblemWithErrors,
  StoredDocument,
  TemplateListReply,
  TemplateWriteReply,
} from '../../test-support/template-replies.js';
import type { TemplateSummary } from '../../presenters/template-presenter.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const YAML_HEADERS = { 'content-type': 'application/yaml' };

describeEachDatabase<TemplatesDatabase>('templates routes', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await clearTemplates(getDb());
  });

  const post = (payload: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    app.inject({
      method: 'POST',
      url: '/templates',
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers,
    });
  const put = (id: string, version: string, payload: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    app.inject({
      method: 'PUT',
      url: `/templates/${encodeURIComponent(id)}/${encodeURIComponent(version)}`,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers,
    });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const total = async () => (await get('/templates')).json<TemplateListReply>().total;

  it('creates a template from JSON with 201, a Location and its summary', async () => {
    const response = await post(sampleTemplate({ templateId: 'Edge Switch', templateVersion: '1.2.0', alias: 'ES' }));
    expect(response.statusCode).toBe(201);
    expect(response.headers.location).toBe('/templates/Edge%20Switch/1.2.0');
    const body = response.json<TemplateWriteReply>();
    expect(body.created).toBe(true);
    expect(Array.isArray(body.warnings)).toBe(true);
    expect(body.template).toMatchObject({
      templateId: 'Edge Switch',
      templateVersion: '1.2.0',
      latest: true,
      alias: 'ES',
      origin: '/{ICMP_IPAddress}/',
      originTypes: ['svc-ds-drv-snmp'],
      rangerFilter: null,
      sourceFormat: 'json',
      links: { self: '/templates/Edge%20Switch/1.2.0', versions: '/templates/Edge%20Switch' },
    });
    expect(Date.parse(body.template.createdAt)).not.toBeNaN();
  });

  it('refuses to POST a version that exists with 409 TPL_ERR_TEMPLATE_EXISTS', async () => {
    expect((await post(sampleTemplate())).statusCode).toBe(201);
    const again = await post(sampleTemplate({ description: 'changed' }));
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.json<ProblemDocument>()).toMatchObject({
      code: 'TPL_ERR_TEMPLATE_EXISTS',
      templateId: 'Sample Switch',
      templateVersion: '1.0.0',
    });
    const stored = await get('/templates/Sample%20Switch/1.0.0');
    expect(stored.json<StoredDocument>().description).toBe('A switch used by the tests');
  });

  it('PUT creates (201) then replaces (200) a version, keeping createdAt', async () => {
    const first = await put('Sample Switch', '1.0.0', sampleTemplate());
    expect(first.statusCode).toBe(201);
    const yaml = sampleTemplateYaml({ description: 'replaced from YAML' });
    const second = await put('Sample Switch', '1.0.0', yaml, YAML_HEADERS);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      created: false,
      template: { description: 'replaced from YAML', sourceFormat: 'yaml' },
    });
    expect(second.json<TemplateWriteReply>().template.createdAt).toBe(
      first.json<TemplateWriteReply>().template.createdAt,
    );
    const read = await get('/templates/Sample%20Switch/1.0.0');
    expect(read.json<StoredDocument>().description).toBe('replaced from YAML');
  });

  it('PUT refuses a document naming another template with 409 and stores nothing', async () => {
    const response = await put('Sample Switch', '2.0.0', sampleTemplate({ templateVersion: '1.0.0' }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'TPL_ERR_IDENTITY_MISMATCH',
      expected: { templateId: 'Sample Switch', templateVersion: '2.0.0' },
      found: { templateId: 'Sample Switch', templateVersion: '1.0.0' },
    });
    expect(await total()).toBe(0);
  });

  it('reads the document as JSON by default, with an ETag', async () => {
    const document = sampleTemplate({ templateId: 'Reader', templateVersion: '3.0.0' });
    await post(document);
    const response = await get('/templates/Reader/3.0.0');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}-json"$/);
    expect(response.json()).toEqual(document);
  });

  it('answers If-None-Match naming the current ETag with 304 and no body, per representation', async () => {
    await post(sampleTemplate({ templateId: 'Cached', templateVersion: '1.0.0' }));
    const first = await get('/templates/Cached/1.0.0');
    const etag = String(first.headers.etag);
    const again = await get('/templates/Cached/1.0.0', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['last-modified']).toBe(first.headers['last-modified']);
    expect((await get('/templates/Cached/1.0.0', { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get('/templates/Cached/1.0.0', { 'if-none-match': '*' })).statusCode).toBe(304);
    // The stored source is another representation with its own tag: the JSON document's tag does not match it.
    const source = await get('/templates/Cached/1.0.0?format=source', { 'if-none-match': etag });
    expect(source.statusCode).toBe(200);
    expect(source.headers.etag).not.toBe(etag);
    expect((await get('/templates/Cached/1.0.0', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('changes the ETag when the version is replaced, so the old one gets 200 again', async () => {
    await post(sampleTemplate({ templateId: 'Cached', templateVersion: '1.0.0' }));
    const etag = String((await get('/templates/Cached/1.0.0')).headers.etag);
    await put('Cached', '1.0.0', sampleTemplate({ templateId: 'Cached', templateVersion: '1.0.0', alias: 'New' }));
    const after = await get('/templates/Cached/1.0.0', { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('returns the YAML source as sent for Accept: application/yaml and for ?format=source', async () => {
    const yaml = sampleTemplateYaml({ templateId: 'Yaml One', templateVersion: '1.0.0' });
    expect((await post(yaml, { 'content-type': 'text/yaml' })).statusCode).toBe(201);
    const negotiated = await get('/templates/Yaml%20One/1.0.0', { accept: 'application/yaml' });
    expect(negotiated.statusCode).toBe(200);
    expect(negotiated.headers['content-type']).toMatch(/^application\/yaml/);
    expect(negotiated.body).toBe(yaml);
    const byQuery = await get('/templates/Yaml%20One/1.0.0?format=source');
    expect(byQuery.body).toBe(yaml);
    const asJson = await get('/templates/Yaml%20One/1.0.0');
    expect(asJson.json<StoredDocument>().templateId).toBe('Yaml One');
  });

  it('returns the original JSON text for ?format=source and 406 for YAML of a JSON template', async () => {
    const text = JSON.stringify(sampleTemplate({ templateId: 'Pretty' }), null, 4);
    await post(text);
    const source = await get('/templates/Pretty/1.0.0?format=source');
    expect(source.headers['content-type']).toMatch(/^application\/json/);
    expect(source.body).toBe(text);
    const yaml = await get('/templates/Pretty/1.0.0', { accept: 'application/yaml' });
    expect(yaml.statusCode).toBe(406);
    expect(yaml.json()).toMatchObject({ code: 'TPL_ERR_NOT_ACCEPTABLE', available: ['application/json'] });
  });

  it('returns warnings with a successful write, and refuses them with ?strict=true', async () => {
    const document = sampleTemplate({ templateId: 'Warned' }) as { originTypes: { originType: string }[] };
    document.originTypes.push({ originType: 'svc-ds-drv-icmp' }); // declared, used by no datapoint
    const strict = await app.inject({ method: 'POST', url: '/templates?strict=true', payload: document });
    expect(strict.statusCode).toBe(422);
    expect(strict.json<ProblemWithErrors>().errors.map((e) => e.code)).toContain('DT_WARN_SEM_ORIGIN_TYPE_UNUSED');
    const lenient = await post(document);
    expect(lenient.statusCode).toBe(201);
    const [warning] = lenient.json<TemplateWriteReply>().warnings;
    expect(warning).toMatchObject({ code: 'DT_WARN_SEM_ORIGIN_TYPE_UNUSED', severity: 'warning' });
    expect(warning?.path).toMatch(/^\/originTypes\/1/);
  });

  it('answers a missing template with a 404 problem', async () => {
    const response = await get('/templates/Nobody/1.0.0');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ code: 'TPL_ERR_TEMPLATE_NOT_FOUND', status: 404, templateId: 'Nobody' });
    expect((await get('/templates/Nobody')).statusCode).toBe(404);
  });

  it('refuses an invalid template with 422 listing every error, and stores nothing', async () => {
    const broken = structuredClone(sampleTemplate({ templateId: 'Broken' })) as {
      description?: string;
      datapointSets: { datapointSetType: string; datapoints: { addressConfig: { pollingGroup: string } }[] }[];
    };
    delete broken.description;
    (broken.datapointSets[0] as { datapointSetType: string }).datapointSetType = 'grid';
    (broken.datapointSets[0]?.datapoints[0] as { addressConfig: { pollingGroup: string } }).addressConfig.pollingGroup =
      '2m';
    const response = await post(JSON.stringify(broken, null, 2));
    expect(response.statusCode).toBe(422);
    const body = response.json<ProblemWithErrors>();
    expect(body.code).toBe('TPL_ERR_TEMPLATE_INVALID');
    expect(body.errors.length).toBeGreaterThanOrEqual(3);
    for (const error of body.errors) {
      const { code, path, line, column, message } = error;
      expect([code, path, line, column, message].map((v) => typeof v)).toEqual([
        'string',
        'string',
        'number',
        'number',
        'string',
      ]);
    }
    const paths = body.errors.map((e) => e.path);
    expect(paths).toContain('/datapointSets/0/datapointSetType');
    expect(paths).toContain('/datapointSets/0/datapoints/0/addressConfig/pollingGroup');
    const typeError = body.errors.find((e) => e.path === '/datapointSets/0/datapointSetType');
    expect(typeError?.line).toBeGreaterThan(1);
    expect(await total()).toBe(0);
  });

  it.each([
    ['JSON', JSON_HEADERS],
    ['YAML', YAML_HEADERS],
  ])('refuses a %s body that is not UTF-8 with 422 naming the byte offset, and stores nothing', async (_, headers) => {
    const text = JSON.stringify(sampleTemplate({ templateId: 'Latin', description: 'Caf\u00e9' }), null, 2);
    const bytes = Buffer.from(text, 'utf8');
    // "Café" saved as Latin-1: é becomes the single byte 0xE9, which UTF-8 cannot start a character with.
    const at = bytes.indexOf(Buffer.from('\u00e9', 'utf8'));
    const latin1 = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9]), bytes.subarray(at + 2)]);
    const response = await app.inject({ method: 'POST', url: '/templates', payload: latin1, headers });
    expect(response.statusCode).toBe(422);
    const body = response.json<ProblemWithErrors>();
    expect(body.code).toBe('TPL_ERR_TEMPLATE_INVALID');
    expect(body.errors).toHaveLength(1);
    const line = text.slice(0, text.indexOf('Caf')).split('\n').length;
    expect(body.errors[0]).toMatchObject({ code: 'DT_ERR_LOAD_ENCODING', found: '0xE9', line });
    expect(body.errors[0]?.message).toContain(`byte offset ${at}`);
    expect(body.detail).toContain(`byte offset ${at}`);
    expect(await total()).toBe(0);
  });

  it('refuses malformed JSON text with 422 and the syntax error position', async () => {
    const response = await post('{\n  "templateId": "x",\n  oops\n}');
    expect(response.statusCode).toBe(422);
    const [error] = response.json<ProblemWithErrors>().errors;
    expect(error?.line).toBe(3);
    expect(error?.column).toBeGreaterThan(0);
  });

  it('accepts templateIds with spaces and versions with build metadata in URLs', async () => {
    await post(sampleTemplate({ templateId: 'SIMATIC ET200M IM153-4PN', templateVersion: '1.0.0+build.7' }));
    const response = await get('/templates/SIMATIC%20ET200M%20IM153-4PN/1.0.0%2Bbuild.7');
    expect(response.statusCode).toBe(200);
    expect(response.json<StoredDocument>().templateVersion).toBe('1.0.0+build.7');
  });

  it('lists versions of an id newest first by SemVer precedence', async () => {
    for (const v of ['1.0.0', '1.10.0', '1.2.0', '2.0.0-rc.1', '2.0.0-rc.10', '2.0.0-rc.2', '2.0.0', '0.9.0']) {
      expect((await post(sampleTemplate({ templateId: 'Versioned', templateVersion: v }))).statusCode).toBe(201);
    }
    const response = await get('/templates/Versioned');
    expect(response.statusCode).toBe(200);
    const { items } = response.json<{ readonly items: readonly TemplateSummary[] }>();
    expect(items.map((i) => i.templateVersion)).toEqual([
      '2.0.0',
      '2.0.0-rc.10',
      '2.0.0-rc.2',
      '2.0.0-rc.1',
      '1.10.0',
      '1.2.0',
      '1.0.0',
      '0.9.0',
    ]);
    expect(items.filter((i) => i.latest).map((i) => i.templateVersion)).toEqual(['2.0.0']);
  });

  it('deletes one version (the next newest becomes latest), then all versions', async () => {
    for (const v of ['1.0.0', '2.0.0', '1.5.0'])
      await post(sampleTemplate({ templateId: 'Doomed', templateVersion: v }));
    const deleted = await app.inject({ method: 'DELETE', url: '/templates/Doomed/2.0.0' });
    expect(deleted.statusCode).toBe(204);
    expect((await get('/templates/Doomed/2.0.0')).statusCode).toBe(404);
    const latest = (await get('/templates?latest=true')).json<TemplateListReply>().items;
    expect(latest.map((i) => i.templateVersion)).toEqual(['1.5.0']);
    expect((await app.inject({ method: 'DELETE', url: '/templates/Doomed/2.0.0' })).statusCode).toBe(404);
    const all = await app.inject({ method: 'DELETE', url: '/templates/Doomed' });
    expect(all.statusCode).toBe(204);
    expect((await get('/templates/Doomed')).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: '/templates/Doomed' })).statusCode).toBe(404);
  });

  it('filters by prefix, text, originType and latest, and pages with a total', async () => {
    await post(
      sampleTemplate({ templateId: 'SCALANCE X200', templateVersion: '1.0.0', description: 'Managed switch' }),
    );
    await post(
      sampleTemplate({ templateId: 'SCALANCE X200', templateVersion: '1.1.0', description: 'Managed switch' }),
    );
    await post(sampleTemplate({ templateId: 'SCALANCE XC200', templateVersion: '1.0.0', alias: 'Compact' }));
    await post(
      sampleTemplate({
        templateId: 'ET200SP',
        templateVersion: '1.0.0',
        originType: 'svc-ds-drv-pnio',
        description: 'IO station',
      }),
    );
    await post(sampleTemplate({ templateId: 'scalance lower', templateVersion: '1.0.0' }));

    const ids = async (query: string) =>
      (await get(`/templates?${query}`))
        .json<TemplateListReply>()
        .items.map((i) => `${i.templateId}@${i.templateVersion}`);
    expect(await ids('prefix=SCALANCE')).toEqual([
      'SCALANCE X200@1.1.0',
      'SCALANCE X200@1.0.0',
      'SCALANCE XC200@1.0.0',
    ]);
    expect(await ids('prefix=SCALANCE&latest=true')).toEqual(['SCALANCE X200@1.1.0', 'SCALANCE XC200@1.0.0']);
    expect(await ids('q=MANAGED')).toEqual(['SCALANCE X200@1.1.0', 'SCALANCE X200@1.0.0']);
    expect(await ids('q=compact')).toEqual(['SCALANCE XC200@1.0.0']);
    expect(await ids('originType=svc-ds-drv-pnio')).toEqual(['ET200SP@1.0.0']);
    expect(await ids('q=scalance&latest=true')).toEqual([
      'SCALANCE X200@1.1.0',
      'SCALANCE XC200@1.0.0',
      'scalance lower@1.0.0',
    ]);

    const page = (await get('/templates?limit=2&offset=1')).json<TemplateListReply>();
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(page.items.map((i) => `${i.templateId}@${i.templateVersion}`)).toEqual([
      'SCALANCE X200@1.1.0',
      'SCALANCE X200@1.0.0',
    ]);
  });

  it('rejects a page size above the maximum with a validation problem naming the parameter', async () => {
    const response = await get('/templates?limit=1000');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'SVC_ERR_REQUEST_VALIDATION',
      errors: [{ in: 'querystring', pointer: '/limit', keyword: 'maximum' }],
    });
  });

  it('accepts template bodies above the ordinary 1 MiB limit and refuses those above 8 MiB with 413', async () => {
    const padding = `# ${'x'.repeat(1024 * 1024 * 2)}\n`;
    const big = await post(padding + sampleTemplateYaml({ templateId: 'Big' }), YAML_HEADERS);
    expect(big.statusCode).toBe(201);
    const huge = await post(`# ${'x'.repeat(8 * 1024 * 1024 + 10)}\n`, YAML_HEADERS);
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'SVC_ERR_BODY_TOO_LARGE', limit: 8 * 1024 * 1024 });
  });

  it('refuses JSON nested deeper than 64 levels with 400 before validating', async () => {
    const deep = `{"templateId": ${'['.repeat(70)}${']'.repeat(70)}}`;
    const response = await post(deep);
    expect(response.statusCode).toBe(400);
    expect(response.json<ProblemDocument>().code).toBe('SVC_ERR_JSON_TOO_DEEP');
  });

  it('answers an unsupported media type with 415', async () => {
    const response = await post('templateId: x', { 'content-type': 'text/plain' });
    expect(response.statusCode).toBe(415);
    expect(response.json<ProblemDocument>().code).toBe('SVC_ERR_MEDIA_TYPE_UNSUPPORTED');
  });
});
