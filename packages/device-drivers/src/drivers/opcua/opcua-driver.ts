/**
 * `svc-ds-drv-opcua`: variables of an OPC UA server, read with node-opcua over one kept secure
 * channel and session per device. Polled datapoints are read with Read requests (attribute
 * Value, up to `maxNodesPerRead` nodes each); `subscription` datapoints are monitored items of
 * one subscription. Security None, Sign and SignAndEncrypt (Basic256Sha256); anonymous,
 * user-name and certificate identities. Configuration: opcua-settings.ts; docs/devices.md,
 * "OPC UA"; decision 0048.
 */
import type { DataValue } from 'node-opcua-client';
import { configProblems } from '../../config-values.js';
import type {
  DriverContext,
  DriverFactory,
  PointRequest,
  PollingDriver,
  ReadRequest,
  ReadResult,
  SubscriptionListener,
} from '../../driver.js';
import { AddressGuard } from '../../address-guard.js';
import { DriverError } from '../../driver-error.js';
import { parsePoints } from '../../parse-points.js';
import { perRequest } from '../../per-request.js';
import { reportOnce } from '../../report-once.js';
import type { DatapointUpdate } from '@triad/device-templates';
import {
  createApplicationCertificate,
  MemoryServerCertificateTrust,
  type OpcuaKeyPair,
  type ServerCertificateTrust,
} from './opcua-certificates.js';
import { OpcuaConnection } from './opcua-connection.js';
import { opcuaLibrary } from './opcua-library.js';
import { BrowsePathCache, opcuaPoint, type OpcuaPoint } from './opcua-nodes.js';
import { OPCUA_ORIGIN_TYPE, opcuaSettings, type OpcuaSettings } from './opcua-settings.js';
import { OpcuaSubscriptions } from './opcua-subscriptions.js';
import { badReading, readingOf } from './opcua-values.js';

export { OPCUA_ORIGIN_TYPE } from './opcua-settings.js';

export interface OpcuaDriverOptions {
  /**
   * This client's application certificate for devices whose settings bring none: asked once per
   * driver factory. Default: one made in memory at first need (per process).
   */
  readonly keyPair?: () => Promise<OpcuaKeyPair>;
  /** How server certificates without a configured thumbprint are trusted; default trust on first use, in memory. */
  readonly trust?: ServerCertificateTrust;
}

/** The OPC UA driver. */
export function createOpcuaDriver(options: OpcuaDriverOptions = {}): DriverFactory {
  let made: Promise<OpcuaKeyPair> | undefined;
  const keyPair =
    options.keyPair ??
    (() => {
      made ??= createApplicationCertificate();
      made.catch(() => (made = undefined));
      return made;
    });
  const trust = options.trust ?? new MemoryServerCertificateTrust();
  return {
    originType: OPCUA_ORIGIN_TYPE,
    secretKeys: ['identity.password', 'identity.privateKey', 'clientCertificate.privateKey'],
    tuningKeys: ['connectTimeout', 'requestTimeout', 'publishingInterval', 'maxNodesPerRead', 'nodes'],
    check: (config) => configProblems(() => opcuaSettings(config)),
    targets: (config) => {
      if (configProblems(() => opcuaSettings(config)).length > 0) return [];
      const { host, port } = opcuaSettings(config);
      return [{ host, port, path: 'endpointUrl' }];
    },
    create(context: DriverContext): PollingDriver {
      let settings: OpcuaSettings | DriverError;
      try {
        settings = opcuaSettings(context.config);
      } catch (error) {
        if (!(error instanceof DriverError)) throw error;
        settings = error;
      }
      if (settings instanceof DriverError) {
        const problem = settings;
        return {
          kind: 'polling',
          read: () => Promise.reject(problem),
          start: () => Promise.reject(problem),
          close: () => Promise.resolve(),
        };
      }
      return new OpcuaDevice(settings, context, keyPair, trust);
    },
  };
}

export const opcuaDriver: DriverFactory = createOpcuaDriver();

/** One device: its connection, its polled reads and its subscriptions. */
class OpcuaDevice implements PollingDriver {
  readonly kind = 'polling';
  readonly #settings: OpcuaSettings;
  readonly #connection: OpcuaConnection;
  readonly #cache = new BrowsePathCache();
  readonly #report: (message: string) => void;
  readonly #pointsOf: (request: ReadRequest) => OpcuaPoint[];
  #subscriptions: OpcuaSubscriptions | undefined;

  constructor(
    settings: OpcuaSettings,
    context: DriverContext,
    keyPair: () => Promise<OpcuaKeyPair>,
    trust: ServerCertificateTrust,
  ) {
    this.#settings = settings;
    this.#report = reportOnce(context.log, `${OPCUA_ORIGIN_TYPE} ${settings.endpointUrl}`);
    this.#connection = new OpcuaConnection(settings, {
      guard: context.guard ?? new AddressGuard(),
      keyPair,
      trust,
      log: context.log,
    });
    this.#pointsOf = perRequest((request) =>
      parsePoints(
        request,
        (point) => opcuaPoint(settings, point),
        this.#report,
        'the OPC UA driver reads map sets only',
      ),
    );
  }

  /** How many sessions the device's connection opened so far (tests). */
  get sessionsOpened(): number {
    return this.#connection.opened;
  }

  async read(request: ReadRequest, signal: AbortSignal): Promise<ReadResult> {
    const points = this.#pointsOf(request);
    const values = new Map<PointRequest, DatapointUpdate>();
    // A session kept from an earlier poll may be gone meanwhile: one fresh session gets a second chance.
    let retry = this.#connection.isOpen;
    for (;;) {
      try {
        await this.#readInto(points, values, signal);
        break;
      } catch (error) {
        if (retry && error instanceof DriverError && !this.#connection.isOpen && !signal.aborted) {
          retry = false;
          continue;
        }
        throw error;
      }
    }
    const now = Date.now();
    return { updates: request.points.map((point) => values.get(point) ?? badReading(point, now)) };
  }

  async #readInto(points: readonly OpcuaPoint[], values: Map<PointRequest, DatapointUpdate>, signal: AbortSignal) {
    const resolved = await this.#connection.request(
      'translate browse paths',
      (s) =>
        this.#cache.resolve(
          s,
          points.map((point) => point.settings.node),
        ),
      signal,
    );
    const reads: { point: OpcuaPoint; nodeId: unknown }[] = [];
    for (const [i, point] of points.entries()) {
      const node = resolved[i];
      if (node === undefined || 'status' in node) {
        this.#report(
          `${point.point.datapointSetId}/${point.point.datapointId}: the server says ${node?.status ?? 'BadNoMatch'}`,
        );
        values.set(point.point, badReading(point.point));
      } else reads.push({ point, nodeId: node.nodeId });
    }
    for (let start = 0; start < reads.length; start += this.#settings.maxNodesPerRead) {
      const chunk = reads.slice(start, start + this.#settings.maxNodesPerRead);
      const dataValues: DataValue[] = await this.#connection.request(
        'read',
        (s) =>
          s.read(
            chunk.map(({ nodeId }) => ({ nodeId: nodeId as string, attributeId: opcuaLibrary().AttributeIds.Value })),
          ),
        signal,
      );
      chunk.forEach(({ point }, i) => {
        const dataValue = dataValues[i];
        values.set(
          point.point,
          dataValue === undefined ? badReading(point.point) : readingOf(point.point, dataValue, this.#report),
        );
      });
    }
  }

  async start(request: ReadRequest, listener: SubscriptionListener): Promise<void> {
    const points = parsePoints(
      request,
      (point) => opcuaPoint(this.#settings, point),
      this.#report,
      'the OPC UA driver reads map sets only',
    );
    if (points.length === 0) return;
    this.#subscriptions = new OpcuaSubscriptions(
      this.#connection,
      this.#cache,
      this.#settings.publishingIntervalMs,
      this.#report,
    );
    await this.#subscriptions.start(points, listener);
  }

  async close(): Promise<void> {
    await this.#subscriptions?.close();
    await this.#connection.close();
  }
}
