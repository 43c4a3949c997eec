/**
 * The subscribed datapoints of one OPC UA device (`receiveMode: subscription`): one OPC UA
 * subscription per session at the driver's `publishingInterval`, a monitored item per node with
 * its sampling interval and deadband (absolute or percent of the node's EURange), set up again
 * on every new session. While the connection is down, it is tried again after 1 s, doubling up
 * to 60 s.
 */
import type {
  ClientSession,
  ClientSubscription,
  DataValue,
  DeadbandType,
  MonitoringParametersOptions,
} from 'node-opcua-client';
import { errorMessage } from '@triad/common';
import type { SubscriptionListener } from '../../driver.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import type { OpcuaConnection } from './opcua-connection.js';
import { opcuaLibrary } from './opcua-library.js';
import type { BrowsePathCache, OpcuaPoint } from './opcua-nodes.js';
import { badReading, readingOf } from './opcua-values.js';

export class OpcuaSubscriptions {
  readonly #connection: OpcuaConnection;
  readonly #cache: BrowsePathCache;
  readonly #publishingIntervalMs: number;
  readonly #report: (message: string) => void;
  #points: readonly OpcuaPoint[] = [];
  #listener: SubscriptionListener | undefined;
  #subscription: ClientSubscription | undefined;
  #retry: NodeJS.Timeout | undefined;
  #delayMs = 1000;
  #closed = false;

  constructor(
    connection: OpcuaConnection,
    cache: BrowsePathCache,
    publishingIntervalMs: number,
    report: (message: string) => void,
  ) {
    this.#connection = connection;
    this.#cache = cache;
    this.#publishingIntervalMs = publishingIntervalMs;
    this.#report = report;
  }

  /** Subscribes `points`; resolves once subscribed, or throws why not (and keeps trying). */
  async start(points: readonly OpcuaPoint[], listener: SubscriptionListener): Promise<void> {
    this.#points = points;
    this.#listener = listener;
    this.#connection.onSession((session) => this.#arm(session));
    this.#connection.onLoss((error) => {
      if (this.#closed) return;
      this.#subscription = undefined;
      listener.connection(error);
      this.#tryLater();
    });
    try {
      await this.#connection.session();
      if (this.#subscription === undefined) throw new DriverError('protocol', 'the subscription could not be created');
    } catch (error) {
      this.#tryLater();
      throw toDriverError(error, 'OPC UA subscription');
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const subscription = this.#subscription;
    this.#subscription = undefined;
    await subscription?.terminate().catch(() => undefined);
  }

  #tryLater(): void {
    if (this.#closed || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connection.session().then(
        () => (this.#delayMs = 1000),
        () => {
          this.#delayMs = Math.min(60_000, this.#delayMs * 2);
          this.#tryLater();
        },
      );
    }, this.#delayMs);
    this.#retry.unref();
  }

  /** Creates the subscription and its monitored items on a new session. */
  async #arm(session: ClientSession): Promise<void> {
    const listener = this.#listener;
    if (this.#closed || listener === undefined || this.#points.length === 0) return;
    const { AttributeIds, DataChangeFilter, DataChangeTrigger, DeadbandType, TimestampsToReturn } = opcuaLibrary();
    const deadbands: Readonly<Record<OpcuaPoint['settings']['deadband']['type'], DeadbandType>> = {
      none: DeadbandType.None,
      absolute: DeadbandType.Absolute,
      percent: DeadbandType.Percent,
    };
    const subscription = await session.createSubscription2({
      requestedPublishingInterval: this.#publishingIntervalMs,
      requestedLifetimeCount: 60,
      requestedMaxKeepAliveCount: 10,
      maxNotificationsPerPublish: 0,
      publishingEnabled: true,
      priority: 1,
    });
    const resolved = await this.#cache.resolve(
      session,
      this.#points.map((point) => point.settings.node),
    );
    const groups = new Map<
      string,
      { parameters: MonitoringParametersOptions; points: OpcuaPoint[]; nodeIds: unknown[] }
    >();
    const bad = [];
    for (const [i, point] of this.#points.entries()) {
      const node = resolved[i];
      if (node === undefined || 'status' in node) {
        this.#report(
          `${point.point.datapointSetId}/${point.point.datapointId}: the server says ${node?.status ?? 'BadNoMatch'}`,
        );
        bad.push(badReading(point.point));
        continue;
      }
      const { samplingInterval, deadband } = point.settings;
      const key = `${samplingInterval ?? ''}|${deadband.type}|${deadband.value}`;
      let group = groups.get(key);
      if (group === undefined) {
        const parameters: MonitoringParametersOptions = {
          samplingInterval: samplingInterval ?? this.#publishingIntervalMs,
          discardOldest: true,
          queueSize: 1,
          ...(deadband.type === 'none'
            ? {}
            : {
                filter: new DataChangeFilter({
                  trigger: DataChangeTrigger.StatusValue,
                  deadbandType: deadbands[deadband.type],
                  deadbandValue: deadband.value,
                }),
              }),
        };
        groups.set(key, (group = { parameters, points: [], nodeIds: [] }));
      }
      group.points.push(point);
      group.nodeIds.push(node.nodeId);
    }
    if (bad.length > 0) listener.updates(bad);
    for (const group of groups.values()) {
      const items = await subscription.monitorItems(
        group.nodeIds.map((nodeId) => ({ nodeId: nodeId as string, attributeId: AttributeIds.Value })),
        group.parameters,
        TimestampsToReturn.Both,
      );
      const refused = [];
      for (const [i, item] of items.monitoredItems.entries()) {
        const point = group.points[i];
        if (point === undefined || item.statusCode.isGood()) continue;
        const { datapointSetId, datapointId } = point.point;
        this.#report(`${datapointSetId}/${datapointId}: the server refused to monitor it (${item.statusCode.name})`);
        refused.push(badReading(point.point));
      }
      if (refused.length > 0) listener.updates(refused);
      items.on('changed', (_item: unknown, dataValue: DataValue, index: number) => {
        const point = group.points[index];
        if (point !== undefined && !this.#closed) listener.updates([readingOf(point.point, dataValue, this.#report)]);
      });
      items.on('err', (message: string) => this.#report(`monitored items: ${message}`));
    }
    subscription.on('error', (error: Error) => this.#report(`subscription: ${errorMessage(error)}`));
    this.#subscription = subscription;
    listener.connection(null);
  }
}
