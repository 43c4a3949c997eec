/**
 * `svc-ds-drv-mqtt`: subscribes to each `topics[].topicName` (an MQTT topic filter, or a
 * regular expression on RE2 when it starts with `^`), keeps the messages whose `originStrategy`
 * names this device's origin, and reads the entry's `datapointSet` from them by `operationMode`
 * (`extract`: dot paths, `transform`: JSONPath). Devices with the same broker settings share one
 * connection (`MqttConnectionPool`). See docs/devices.md ("MQTT").
 */
import type { PipelineInput } from '@triad/device-templates';
import { AddressGuard, refusedError } from '../../address-guard.js';
import { configProblems } from '../../config-values.js';
import type {
  DriverContext,
  DriverFactory,
  PointRequest,
  ReadRequest,
  SubscriptionDriver,
  SubscriptionListener,
  TableRequest,
} from '../../driver.js';
import { DriverError } from '../../driver-error.js';
import { compileDatapointReader } from './datapoint-reader.js';
import type { RouteBinding } from './message-route.js';
import type { ConnectionUser } from './mqtt-connection.js';
import { MqttConnectionPool, type PooledSubscription } from './mqtt-connection-pool.js';
import type { MqttMessage } from './mqtt-message.js';
import { brokerTarget, DEFAULT_BROKER_URL, mqttSettings, type MqttSettings, type TopicEntry } from './mqtt-settings.js';

/** What `createMqttDriver` takes; both have defaults. */
export interface MqttDriverOptions {
  /**
   * The broker of devices whose configuration names none; default mqtt://127.0.0.1:1883. The
   * template service passes its `TRIAD_MQTT_URL` setting here (packages read no environment).
   */
  readonly defaultBrokerUrl?: string;
  /** Where connections are shared; default one pool per factory. */
  readonly pool?: MqttConnectionPool;
}

/** Creates the MQTT driver factory. */
export function createMqttDriver(options: MqttDriverOptions = {}): DriverFactory {
  const pool = options.pool ?? new MqttConnectionPool();
  const defaultBrokerUrl = () => options.defaultBrokerUrl ?? DEFAULT_BROKER_URL;
  return {
    originType: 'svc-ds-drv-mqtt',
    secretKeys: ['password', 'tls.key', 'tls.passphrase'],
    tuningKeys: [
      'qos',
      'topics',
      'subscribeFilter',
      'keepalive',
      'reconnectPeriod',
      'connectTimeout',
      'authRetryPeriod',
    ],
    check: (config) => configProblems(() => mqttSettings(config, defaultBrokerUrl())),
    targets: (config) => {
      if (configProblems(() => mqttSettings(config, defaultBrokerUrl())).length > 0) return [];
      const { host, port } = brokerTarget(mqttSettings(config, defaultBrokerUrl()).connection.brokerUrl);
      return [{ host, port, path: 'brokerUrl' }];
    },
    create(context: DriverContext): SubscriptionDriver {
      let settings: MqttSettings | DriverError;
      try {
        settings = mqttSettings(context.config, defaultBrokerUrl());
      } catch (error) {
        if (!(error instanceof DriverError)) throw error;
        settings = error;
      }
      let subscription: PooledSubscription | undefined;
      let closed = false;
      return {
        kind: 'subscription',
        async start(request: ReadRequest, listener: SubscriptionListener): Promise<void> {
          if (settings instanceof DriverError) throw settings;
          // A template may declare the driver without reading anything through it.
          if (closed || (request.points.length === 0 && request.tables.length === 0)) return;
          const guard = context.guard ?? new AddressGuard();
          // Sockets skip the guard's lookup for an address: check that one now (it never changes).
          const { host, port } = brokerTarget(settings.connection.brokerUrl);
          const refusal = guard.policy.checkHost(host, port);
          if (refusal !== undefined) throw refusedError(refusal);
          const user = connectionUser(settings, request, listener, context);
          subscription = pool.subscribe(settings.connection, user, context.log, guard);
          await subscription.ready;
        },
        async close(): Promise<void> {
          closed = true;
          await subscription?.close();
        },
      };
    },
  };
}

/** The MQTT driver with connections shared across all devices of the process. */
export const mqttDriver: DriverFactory = createMqttDriver();

/** One device as the shared connection sees it: its topic entries bound to its origin. */
function connectionUser(
  settings: MqttSettings,
  request: ReadRequest,
  listener: SubscriptionListener,
  context: DriverContext,
): ConnectionUser {
  const warn = throttledLog(context.log);
  const bindings: RouteBinding[] = [];
  for (const entry of settings.topics) {
    const points = request.points.filter((point) => point.datapointSetId === entry.datapointSet);
    const tables = request.tables.filter((table) => table.datapointSetId === entry.datapointSet);
    if (points.length === 0 && tables.length === 0) {
      context.log?.(`MQTT: ${entry.path}.datapointSet "${entry.datapointSet}" has no subscription datapoints`);
      continue;
    }
    const read = entryReader(entry, points, tables);
    bindings.push({
      entry,
      origin: context.origin,
      handle(message: MqttMessage) {
        // An empty payload deletes a retained message: no value, and nothing cleared.
        if (message.empty) return;
        const problem = message.problem;
        if (problem !== undefined) {
          listener.problem?.({ kind: 'payload-malformed', message: problem });
          warn(problem);
          return;
        }
        const updates = read(message, warn);
        if (updates.length > 0) listener.updates(updates);
        else warn(`a message on ${message.topic} carried none of the datapoints of "${entry.datapointSet}"`);
      },
    });
  }
  if (bindings.length === 0)
    throw new DriverError(
      'configuration',
      'no topics[] entry names a datapointSet with datapoints of receiveMode "subscription"',
    );
  return {
    bindings,
    qos: settings.qos,
    connection(error) {
      listener.connection(error);
      // While the broker is unreachable the device has no values: its datapoints read as bad, so
      // "value is null" alarms fire as the template says (what the collector does for polls).
      if (error !== null) {
        const timestamp = Date.now();
        listener.updates(
          request.points.map((point) => ({
            datapointSetId: point.datapointSetId,
            datapointId: point.datapointId,
            rawValue: null,
            quality: 'bad',
            timestamp,
          })),
        );
      }
    },
  };
}

type EntryReader = (message: MqttMessage, warn: (text: string) => void) => PipelineInput[];

/**
 * Reads an entry's datapoints from a message. A map set gets one update per datapoint the
 * message carries; a table set one row per message, keyed by its `indexes` datapoints.
 */
function entryReader(entry: TopicEntry, points: readonly PointRequest[], tables: readonly TableRequest[]): EntryReader {
  const compile = (point: PointRequest) => {
    try {
      return { point, read: compileDatapointReader(point.originAddress, entry.operationMode) };
    } catch (error) {
      if (error instanceof DriverError)
        throw new DriverError('configuration', `${point.datapointSetId}/${point.datapointId}: ${error.message}`);
      throw error;
    }
  };
  const scalars = points.map(compile);
  const rows = tables.map((table) => ({ table, columns: table.columns.map(compile) }));
  return (message, warn) => {
    const timestamp = message.receivedAt;
    const updates: PipelineInput[] = [];
    for (const { point, read } of scalars) {
      const rawValue = read(message);
      if (rawValue !== undefined)
        updates.push({
          datapointSetId: point.datapointSetId,
          datapointId: point.datapointId,
          rawValue,
          quality: 'good',
          timestamp,
        });
    }
    for (const { table, columns } of rows) {
      const values = new Map(columns.map(({ point, read }) => [point.datapointId, read(message)]));
      const index = table.indexes.map((id) => values.get(id));
      if (index.length === 0 || index.some((value) => typeof value !== 'string' && typeof value !== 'number')) {
        warn(
          `a message on ${message.topic} lacks the row index (${table.indexes.join(', ')}) of ${table.datapointSetId}`,
        );
        continue;
      }
      const tableIndex = index.length === 1 ? (index[0] as string | number) : index.join('.');
      for (const [datapointId, rawValue] of values)
        if (rawValue !== undefined)
          updates.push({
            datapointSetId: table.datapointSetId,
            datapointId,
            rawValue,
            quality: 'good',
            timestamp,
            tableIndex,
          });
    }
    return updates;
  };
}

/** Logs a message the first time, then at most once a minute with the number left out. */
function throttledLog(log: ((message: string) => void) | undefined): (text: string) => void {
  let last = -Infinity;
  let skipped = 0;
  return (text) => {
    if (log === undefined) return;
    const now = Date.now();
    if (now - last < 60_000) {
      skipped++;
      return;
    }
    log(`MQTT: ${text}${skipped > 0 ? ` (${skipped} similar messages not logged)` : ''}`);
    last = now;
    skipped = 0;
  };
}
