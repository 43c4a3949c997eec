import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { PipelineOutput } from '@triad/device-templates';
import type { ProblemDocument } from '@triad/service-kit';
import type { ProblemEntry } from '../../presenters/problem-presenter.js';
import { buildTestApp } from '../../test-support/templates-test-app.js';
import { sampleTemplate } from '../../test-support/sample-templates.js';
import { MAX_UPDATES } from './schemas.js';
import type { TemplatesDatabase } from '../../repositories/templates-tables.js';

/** The parts of the OpenAPI document this test reads. */
interface OpenApiSchema {
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly items?: OpenApiSchema;
}
interface OpenApiDocument {
  readonly paths: Readonly<
    Record<
      string,
      Readonly<
        Record<
          string,
          {
            readonly responses: Readonly<
              Record<string, { readonly content?: Record<string, { schema: OpenApiSchema }> }>
            >;
          }
        >
      >
    >
  >;
}

type Document = {
  datapointSets: { datapoints: Record<string, unknown>[] }[];
  templateId: string;
  templateVersion: string;
};

// The sample switch with an alarm on its uptime and a conversion from hundredths of seconds.
function alarmedTemplate(templateVersion = '1.0.0'): Document {
  const document = sampleTemplate({ templateId: 'Evaluated Switch', templateVersion }) as unknown as Document;
  Object.assign(document.datapointSets[0]!.datapoints[0]!, {
    convConfig: { expression: 'datapoint.rawValue / 100' },
    unitsConfig: { from: 's', to: 'min', units: true },
    alertConfig: {
      evaluations: [
        {
          expressions: [{ symbol: 'fresh', expression: 'datapoint.value < 5' }],
          logic: 'fresh',
          severity: 401,
          text: 'The switch restarted',
          textHelp: 'Look for a power failure',
          onStartup: true,
          audited: true,
          hidden: false,
          broadcast: false,
          facility: 3,
        },
      ],
    },
  });
  return document;
}

const uptime = (rawValue: unknown, extra: Record<string, unknown> = {}) => ({
  datapointSetId: 'system',
  datapointId: 'uptime',
  rawValue,
  ...extra,
});

describeEachDatabase<TemplatesDatabase>('POST /templates/:templateId/:templateVersion/evaluate', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(getDb());
    const created = await app.inject({
      method: 'POST',
      url: '/templates',
      payload: alarmedTemplate(),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });
  const evaluate = (body: object, url = '/templates/Evaluated%20Switch/1.0.0/evaluate') =>
    app.inject({ method: 'POST', url, payload: body });

  it('answers the values and the raise and clear events of the updates, in order', async () => {
    const response = await evaluate({
      updates: [uptime(12_000, { timestamp: 1 }), uptime(60_000, { timestamp: 2 })],
      origin: '10.0.0.9',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<PipelineOutput>();
    expect(body.values).toEqual([
      {
        origin: '10.0.0.9',
        datapointSetId: 'system',
        datapointId: 'uptime',
        value: 2,
        unit: 'min',
        rawValue: 12_000,
        quality: 'good',
        timestamp: 1,
      },
      {
        origin: '10.0.0.9',
        datapointSetId: 'system',
        datapointId: 'uptime',
        value: 10,
        unit: 'min',
        rawValue: 60_000,
        quality: 'good',
        timestamp: 2,
      },
    ]);
    expect(body.events).toEqual([
      {
        type: 'alarm-raised',
        origin: '10.0.0.9',
        datapointSetId: 'system',
        datapointId: 'uptime',
        timestamp: 1,
        severity: 401,
        level: 'warning',
        text: 'The switch restarted',
        textHelp: 'Look for a power failure',
        facility: 3,
        hidden: false,
        audited: true,
        broadcast: false,
        value: 2,
      },
      expect.objectContaining({ type: 'alarm-cleared', severity: 401, timestamp: 2, value: 10 }),
    ]);
  });

  it('starts every request afresh: the same update raises again', async () => {
    for (let i = 0; i < 2; i++) {
      const { events } = (await evaluate({ updates: [uptime(100)] })).json<PipelineOutput>();
      expect(events.map((e) => e.type)).toEqual(['alarm-raised']);
      expect(events[0]?.origin).toBe('/{ICMP_IPAddress}/');
    }
  });

  it('answers unusable updates and failing expressions as events, not as errors', async () => {
    const response = await evaluate({
      updates: [uptime('soon'), { datapointSetId: 'system', datapointId: 'nope', rawValue: 1 }, uptime(100)],
    });
    expect(response.statusCode).toBe(200);
    const { events } = response.json<PipelineOutput>();
    expect(events.map((e) => [e.type, 'code' in e ? e.code : undefined])).toEqual([
      ['evaluation-error', 'DT_ERR_PIPE_RESULT_NOT_FINITE'],
      ['update-rejected', 'DT_ERR_PIPE_UPDATE_DATAPOINT_UNKNOWN'],
      ['alarm-raised', undefined],
    ]);
  });

  it('answers 404 for an unknown template version', async () => {
    const response = await evaluate({ updates: [] }, '/templates/Evaluated%20Switch/9.9.9/evaluate');
    expect(response.statusCode).toBe(404);
    expect(response.json<ProblemDocument>().code).toBe('TPL_ERR_TEMPLATE_NOT_FOUND');
  });

  it('answers 422 with positions for a stored template whose units cannot be converted', async () => {
    const document = alarmedTemplate('2.0.0');
    document.datapointSets[0]!.datapoints[0]!['unitsConfig'] = { from: 'seconds', to: 'min' };
    const text = JSON.stringify(document, null, 2);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/templates',
          payload: text,
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(201);
    const response = await evaluate({ updates: [uptime(1)] }, '/templates/Evaluated%20Switch/2.0.0/evaluate');
    expect(response.statusCode).toBe(422);
    const body = response.json<ProblemDocument & { readonly errors: readonly ProblemEntry[] }>();
    expect(body.code).toBe('TPL_ERR_TEMPLATE_INVALID');
    expect(body.errors).toEqual([
      expect.objectContaining({
        code: 'DT_ERR_PIPE_BUILD_UNIT_UNKNOWN',
        path: '/datapointSets/0/datapoints/0/unitsConfig/from',
      }),
    ]);
    expect(text.split('\n')[body.errors[0]!.line - 1]).toContain('"from": "seconds"');
  });

  it('refuses more than 10,000 updates and malformed bodies with 400', async () => {
    const many = Array.from({ length: MAX_UPDATES + 1 }, () => uptime(1));
    expect((await evaluate({ updates: many })).statusCode).toBe(400);
    expect(
      (await evaluate({ updates: [{ datapointSetId: 'system', datapointId: 'uptime', colour: 'red' }] })).statusCode,
    ).toBe(400);
    expect((await evaluate({})).statusCode).toBe(400);
  });

  it('takes 10,000 updates in one request', async () => {
    const updates = Array.from({ length: MAX_UPDATES }, (_, i) => uptime(i * 10));
    const response = await evaluate({ updates });
    expect(response.statusCode).toBe(200);
    expect(response.json<PipelineOutput>().values).toHaveLength(MAX_UPDATES);
  });

  it('describes the route and its response shapes in the OpenAPI document', async () => {
    const spec = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
    const operation = spec.paths['/templates/{templateId}/{templateVersion}/evaluate']?.post;
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '422']));
    const reply = operation?.responses['200']?.content?.['application/json']?.schema;
    expect(Object.keys(reply?.properties?.events?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['severity', 'text', 'textHelp', 'facility', 'routing']),
    );
  });
});
