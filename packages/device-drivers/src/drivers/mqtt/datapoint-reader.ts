/**
 * How one datapoint's `originAddress` reads a message. Operation mode `extract`: a dot path into
 * the message document (`payload.temperature`, `topic`, `userProperties.site`); `transform`: a
 * JSONPath over the same document (`$.payload.sensors.*.value`). Either mode also takes the
 * driver's own datapoints `<originType>:<name>` (`svc-ds-drv-mqtt:time`), listed in
 * `INTERNAL_DATAPOINTS`.
 */
import { DriverError } from '../../driver-error.js';
import { dotKeysReader, dotPathKeys, valueAtJsonPath } from './message-path.js';
import type { MqttMessage } from './mqtt-message.js';

/** `topics[].operationMode`: how `originAddress` is read. */
export const OPERATION_MODES = ['extract', 'transform'] as const;
/** One of `OPERATION_MODES`. */
export type OperationMode = (typeof OPERATION_MODES)[number];

/**
 * The driver's own datapoints. The health-report fields (`componentId`, `componentType`,
 * `output`, `status` (`pass`, `fail`, `warn`), `version`, `time`) are read from the payload's
 * top level, `time` falling back to the arrival time; `clientId` and `address` come from the
 * MQTT 5 user property, else the payload field, of that name (a subscriber cannot see the
 * publisher's); `topic`, `qos`, `retain` and `receivedAt` (epoch ms) describe the message.
 */
export const INTERNAL_DATAPOINTS = [
  'componentId',
  'componentType',
  'time',
  'output',
  'status',
  'address',
  'clientId',
  'version',
  'topic',
  'qos',
  'retain',
  'receivedAt',
] as const;

/** Reads one datapoint's raw value; undefined when the message does not carry it. */
export type DatapointReader = (message: MqttMessage) => unknown;

const INTERNAL = /^[A-Za-z0-9-]*drv-mqtt:(.+)$/;

/** Compiles the reader of `originAddress`; throws a `configuration` DriverError. */
export function compileDatapointReader(originAddress: string, mode: OperationMode): DatapointReader {
  const internal = INTERNAL.exec(originAddress);
  if (internal !== null) return internalReader(internal[1]!, originAddress);
  if (mode === 'transform') return (message) => valueAtJsonPath(message.document, originAddress);
  if (originAddress === '' || originAddress.split('.').includes(''))
    throw new DriverError('configuration', `originAddress ${JSON.stringify(originAddress)} is not a dot path`);
  const keys = dotPathKeys(originAddress);
  // `payload.…`, the usual path: the document's `payload` is the message's own, so read it
  // there without building the document.
  if (keys.length > 1 && keys[0] === 'payload') {
    const readPayload = dotKeysReader(keys.slice(1));
    return (message) => readPayload(message.payload);
  }
  const read = dotKeysReader(keys);
  return (message) => read(message.document);
}

function internalReader(name: string, originAddress: string): DatapointReader {
  switch (name) {
    case 'topic':
      return (message) => message.topic;
    case 'qos':
      return (message) => message.qos;
    case 'retain':
      return (message) => message.retain;
    case 'receivedAt':
      return (message) => message.receivedAt;
    case 'time':
      return (message) => message.payloadField('time') ?? message.receivedAt;
    case 'clientId':
    case 'address':
      return (message) => message.userProperty(name) ?? message.payloadField(name);
    case 'componentId':
    case 'componentType':
    case 'output':
    case 'status':
    case 'version':
      return (message) => message.payloadField(name);
    default:
      throw new DriverError(
        'configuration',
        `originAddress ${originAddress} names no datapoint of the MQTT driver ` +
          `(it has ${INTERNAL_DATAPOINTS.join(', ')})`,
      );
  }
}
