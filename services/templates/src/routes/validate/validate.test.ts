import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { ValidationReply } from '../../presenters/validation-presenter.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import { sampleTemplate, sampleTemplateYaml } from '../../test-support/sample-templates.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

describeEachDatabase<TemplatesDatabase>('POST /validate', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
  });
  afterAll(async () => {
    await app?.close();
  });
  const validate = (payload: string, contentType = 'application/json', query = '') =>
    app.inject({ method: 'POST', url: `/validate${query}`, payload, headers: { 'content-type': contentType } });

  it('answers 200 valid for a valid JSON template and stores nothing', async () => {
    const response = await validate(JSON.stringify(sampleTemplate({ templateId: 'Only Validated' })));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ valid: true, errors: [] });
    expect((await app.inject({ method: 'GET', url: '/templates/Only%20Validated/1.0.0' })).statusCode).toBe(404);
  });

  it('answers 200 valid for YAML text', async () => {
    const response = await validate(sampleTemplateYaml(), 'application/x-yaml');
    expect(response.statusCode).toBe(200);
    expect(response.json<ValidationReply>().valid).toBe(true);
  });

  it('answers 200 with every error and its position for an invalid template', async () => {
    const yaml = sampleTemplateYaml()
      .replace('datapointSetType: map', 'datapointSetType: grid')
      .replace('pollingGroup: 1m', 'pollingGroup: 2m');
    const response = await validate(yaml, 'text/yaml');
    expect(response.statusCode).toBe(200);
    const body = response.json<ValidationReply>();
    expect(body.valid).toBe(false);
    const lines = yaml.split('\n');
    const lineOf = (path: string) => lines[(body.errors.find((e) => e.path === path)?.line ?? 0) - 1];
    expect(lineOf('/datapointSets/0/datapointSetType')).toContain('datapointSetType: grid');
    expect(lineOf('/datapointSets/0/datapoints/0/addressConfig/pollingGroup')).toContain('pollingGroup: 2m');
  });

  it('answers 200 invalid with the position for text that is not well-formed', async () => {
    const response = await validate('{\n  "templateId": [1,\n}', 'application/json');
    expect(response.statusCode).toBe(200);
    const body = response.json<ValidationReply>();
    expect(body.valid).toBe(false);
    expect(body.errors[0]?.line).toBeGreaterThanOrEqual(2);
  });

  it('reports warnings without failing, and as errors with ?strict=true', async () => {
    const document = sampleTemplate() as { originTypes: { originType: string }[] };
    document.originTypes.push({ originType: 'svc-ds-drv-icmp' }); // declared, used by no datapoint
    const lenient = (await validate(JSON.stringify(document))).json<ValidationReply>();
    expect(lenient.valid).toBe(true);
    expect(lenient.warnings.map((w) => w.code)).toContain('DT_WARN_SEM_ORIGIN_TYPE_UNUSED');
    const strict = (
      await validate(JSON.stringify(document), 'application/json', '?strict=true')
    ).json<ValidationReply>();
    expect(strict.valid).toBe(false);
    expect(strict.errors.map((e) => e.code)).toContain('DT_WARN_SEM_ORIGIN_TYPE_UNUSED');
  });

  it('refuses an unsupported media type with 415 and a bad strict flag with 400', async () => {
    expect((await validate('x', 'text/plain')).statusCode).toBe(415);
    expect((await validate('{}', 'application/json', '?strict=maybe')).statusCode).toBe(400);
  });
});

describeEachDatabase<TemplatesDatabase>('POST /validate: SNMP MIB names', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
  });
  afterAll(async () => {
    await app?.close();
  });
  const validate = (address: string) =>
    app.inject({
      method: 'POST',
      url: '/validate',
      payload: JSON.stringify(sampleTemplate()).replace('1.3.6.1.2.1.1.3.0', address),
      headers: { 'content-type': 'application/json' },
    });

  it('accepts a MIB name of the standard modules and refuses one no module defines', async () => {
    expect((await validate('SNMPv2-MIB::sysUpTime.0')).json<ValidationReply>()).toMatchObject({ valid: true });
    const body = (await validate('SNMPv2-MIB::sysUpTim.0')).json<ValidationReply>();
    expect(body.valid).toBe(false);
    expect(body.errors[0]).toMatchObject({
      code: 'DT_ERR_SEM_SNMP_NAME_UNKNOWN',
      path: '/datapointSets/0/datapoints/0/addressConfig/originAddress',
    });
    expect(body.errors[0]?.message).toContain('the MIB module SNMPv2-MIB defines no sysUpTim');
    expect(body.errors[0]?.message).toContain('check the spelling');
  });
});
