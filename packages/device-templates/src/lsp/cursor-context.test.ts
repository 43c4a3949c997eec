import { describe, expect, it } from 'vitest';
import { cursorContext } from './cursor-context.js';

const yaml = `templateId: x
origin: /{ICMP
originTypes:
  - originType: svc
    address: a
  - originType: b
    port: 1
datapointSets:
- datapointSetId: s
  datapoints:
    - commonConfig:
        datapointId: a
        ali
      calcConfig:
        expression: datapoints.a.value
    - commonConfig:
        datapointType: DATA
`;

const json = `{
  "origin": "/{",
  "originTypes": [{ "originType": "svc" }, { "port": 1, "" }],
  "datapointSets": [
    { "datapointSetId": "s", "datapoints": [
      { "commonConfig": { "datapointId": "a" } },
      { "calcConfig": { "expression": "datapoints.a.value" } }
    ] }
  ]
}`;

/** The context `delta` characters after the start of `needle` in `text`. */
const at = (text: string, format: 'json' | 'yaml', needle: string, delta: number) => {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`not in text: ${needle}`);
  return cursorContext(text, format, offset + delta);
};

describe('cursorContext', () => {
  it.each([
    ['/{ICMP', 6, 'value', ['origin']],
    ['svc', 1, 'value', ['originTypes', 0, 'originType']],
    ['port', 2, 'key', ['originTypes', 1]],
    ['port: 1', 7, 'value', ['originTypes', 1, 'port']],
    ['ali', 3, 'key', ['datapointSets', 0, 'datapoints', 0, 'commonConfig']],
    ['datapoints.a', 12, 'value', ['datapointSets', 0, 'datapoints', 0, 'calcConfig', 'expression']],
    ['DATA', 2, 'value', ['datapointSets', 0, 'datapoints', 1, 'commonConfig', 'datapointType']],
    ['datapointSetId', 3, 'key', ['datapointSets', 0]],
  ] as const)('YAML: at %s+%i the cursor is at a %s of %j', (needle, delta, role, path) => {
    expect(at(yaml, 'yaml', needle, delta)).toMatchObject({ role, path });
  });

  it('YAML: names the key the cursor is on', () => {
    expect(at(yaml, 'yaml', 'datapointSetId', 3).key).toBe('datapointSetId');
  });

  it.each([
    ['"/{"', 3, 'value', ['origin']],
    ['"svc"', 2, 'value', ['originTypes', 0, 'originType']],
    ['""', 1, 'key', ['originTypes', 1]],
    ['"datapointSetId"', 3, 'key', ['datapointSets', 0]],
    ['datapoints.a', 12, 'value', ['datapointSets', 0, 'datapoints', 1, 'calcConfig', 'expression']],
  ] as const)('JSON: at %s+%i the cursor is at a %s of %j', (needle, delta, role, path) => {
    expect(at(json, 'json', needle, delta)).toMatchObject({ role, path });
  });

  it('JSON: gives the string the cursor is in, without its quotes', () => {
    const context = at(json, 'json', '"svc"', 2);
    expect(json.slice(context.string?.start, context.string?.end)).toBe('svc');
  });
});
