import { describe, expect, it } from 'vitest';
import { compileDatapointReader } from './datapoint-reader.js';
import { dotPathReader } from './message-path.js';
import { MqttMessage } from './mqtt-message.js';

const PAYLOADS = [
  { temperature: 21.5, nested: { a: [10, { b: 'x' }] }, $: { x: 1 }, '': 3 },
  [{ temperature: 1 }, 2],
  'plain text',
  42,
  null,
];

const PATHS = [
  'payload',
  '$.payload',
  'payload.temperature',
  '$.payload.temperature',
  'payload.nested.a.0',
  'payload.nested.a.1.b',
  'payload.nested.a.2',
  'payload.0.temperature',
  'payload.1',
  'payload.missing.deeper',
  'payload.__proto__',
  'payload.constructor',
  'payload.toString',
  'payload.$.x',
  '$.payload.$.x',
  'topic',
  'qos',
  'receivedAt',
];

describe('compileDatapointReader, operation mode extract', () => {
  it('reads payload paths as the same dot path over the whole message document', () => {
    for (const payload of PAYLOADS) {
      const message = new MqttMessage('lab/p1/state', Buffer.from(JSON.stringify(payload)), { receivedAt: 1_000 });
      for (const path of PATHS) {
        const expected = dotPathReader(path)(message.document);
        expect(compileDatapointReader(path, 'extract')(message), `${path} of ${JSON.stringify(payload)}`).toEqual(
          expected,
        );
      }
    }
  });

  it('reads payload fields of a text payload as absent', () => {
    const message = new MqttMessage('lab/p1/state', Buffer.from('24.5'), { receivedAt: 1_000 });
    expect(compileDatapointReader('payload', 'extract')(message)).toBe(24.5);
    expect(compileDatapointReader('payload.value', 'extract')(message)).toBeUndefined();
  });
});
