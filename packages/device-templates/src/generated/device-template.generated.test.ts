import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_HEADER, renderTypes } from '../../scripts/generate-types.js';
import type { DeviceTemplate } from './device-template.generated.js';

describe('generated device-template types', () => {
  it('match what the generator produces from the current schema (run scripts/generate-types.ts if not)', async () => {
    const committed = readFileSync(new URL('./device-template.generated.ts', import.meta.url), 'utf8');
    expect(committed.startsWith(GENERATED_HEADER)).toBe(true);
    expect(await renderTypes()).toBe(committed);
  });

  it('change when the schema changes', async () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../schema/device-template.schema.json', import.meta.url), 'utf8'),
    ) as {
      properties: Record<string, unknown>;
    };
    schema.properties['extraField'] = { type: 'string', description: 'test only' };
    expect(await renderTypes(JSON.stringify(schema))).toContain('extraField?: string;');
  });

  it('type a minimal template, including an extra object-valued datapoint key', () => {
    // Checked by the type checker: a template written in TypeScript gets the schema's field names.
    const template = {
      templateId: 'Minimal',
      templateVersion: '1.0.0',
      description: 'A template with one default-valued datapoint',
      origin: 'host-1',
      datapointSets: [
        {
          datapointSetId: 'info',
          datapointSetType: 'map',
          alias: 'Info',
          description: '',
          datapoints: [
            {
              commonConfig: { datapointId: 'model', datapointType: 'DATAPOINT' },
              defaultValueConfig: { isDefault: true, value: 'x' },
              note: {},
            },
          ],
        },
      ],
    } satisfies DeviceTemplate;
    expect(template.datapointSets[0]?.datapoints).toHaveLength(1);
  });
});
