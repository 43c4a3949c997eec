/**
 * The contract between the collector and a driver. A driver speaks one protocol (its
 * `originType`) to one device; the collector decides when to read and feeds what comes back into
 * the template's value pipeline. See docs/devices.md.
 */
import type { AddressConfig, PipelineInput } from '@triad/device-templates';
import type { AddressGuard } from './address-guard.js';
import type { DriverError } from './driver-error.js';

/** One addressed datapoint to read: where (`originAddress`) and as what (`originDataType`, `dataType`). */
export interface PointRequest {
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly originAddress: string;
  readonly originDataType: string;
  readonly dataType: AddressConfig['dataType'];
  readonly receiveMode: AddressConfig['receiveMode'];
  readonly pollingGroup: AddressConfig['pollingGroup'];
}

/**
 * A table set read as a whole: `rootAddress` is the table's driver-specific address (for SNMP the
 * table OID), `columns` its addressed datapoints, `indexes` the datapoints whose values key a row.
 */
export interface TableRequest {
  readonly datapointSetId: string;
  readonly rootAddress: string;
  readonly indexes: readonly string[];
  readonly dynamic: boolean;
  readonly columns: readonly PointRequest[];
}

/** What one poll of one polling group asks a driver for. */
export interface ReadRequest {
  readonly points: readonly PointRequest[];
  readonly tables: readonly TableRequest[];
}

/**
 * The outcome of one poll. `updates` go to the pipeline as they are (scalar readings carry
 * `quality`; a datapoint the device does not have comes back with `rawValue: null` and quality
 * `bad`). A device that cannot be reached at all is a thrown `DriverError`, not an empty result.
 */
export interface ReadResult {
  readonly updates: readonly PipelineInput[];
  /**
   * Set when the answer itself says the device is not reachable although there are readings to
   * keep (ICMP: 100 % loss is a value); the device goes `down` with this error.
   */
  readonly failure?: DriverError;
}

/** A driver that is asked for values on a schedule (SNMP, ICMP, Modbus-TCP, S7, OPC UA). */
export interface PollingDriver {
  readonly kind: 'polling';
  read(request: ReadRequest, signal: AbortSignal): Promise<ReadResult>;
  /**
   * Optional: values the device pushes besides the polled ones (OPC UA subscriptions). The
   * collector calls it with the plan's `subscription` datapoints when there are any, as it calls
   * a `SubscriptionDriver`'s `start`.
   */
  start?(request: ReadRequest, listener: SubscriptionListener): Promise<void>;
  close(): Promise<void>;
}

/**
 * Something wrong with what a device sent, other than a missing value: a device event, counted
 * (docs/devices.md, "Device events"). `value-refused`: a reading that is not of its datapoint's
 * `dataType` (the collector's check); `payload-malformed`: a message the driver cannot read as its
 * configuration says (JSON that does not parse, bytes that are not UTF-8 text).
 */
export interface ReadingProblem {
  readonly kind: 'value-refused' | 'payload-malformed';
  /** Names the value (or the message's topic) and says how to fix it. */
  readonly message: string;
  readonly datapointSetId?: string;
  readonly datapointId?: string;
}

/**
 * A message a device sent of its own accord, kept as a device event of type `trap` (docs/devices.md,
 * "Device events"): an SNMP trap or inform from a known device, its varbinds summarised and bounded
 * (`summariseTrap`), whether or not a datapoint takes it as its value.
 */
export interface DeviceNotification {
  readonly kind: 'trap' | 'inform';
  /** SNMP version: `1`, `2c` or `3`. */
  readonly version: string;
  /** The sender's address. */
  readonly source: string;
  /** Dotted decimal. */
  readonly trapOid: string;
  /** `MODULE::name` when a MIB module read names it. */
  readonly trapName?: string;
  /** sysUpTime.0 of the notification, hundredths of a second, or null. */
  readonly upTime: number | null;
  /** The first varbinds, each value as short text. */
  readonly varbinds: readonly { readonly oid: string; readonly name?: string; readonly value: string }[];
  /** How many varbinds were left out (beyond the first ones). */
  readonly varbindsOmitted: number;
}

/** Callbacks a subscription driver reports through. */
export interface SubscriptionListener {
  /** A message that gave no readings because it could not be read (optional: tests may omit it). */
  problem?(problem: ReadingProblem): void;
  /** A notification the device sent, kept as a device event (optional). */
  notification?(notification: DeviceNotification): void;
  /** Readings as they arrive (already assigned to this device's origin). */
  updates(updates: readonly PipelineInput[]): void;
  /** The connection to the source came up (`null`) or went down (the error). */
  connection(error: DriverError | null): void;
}

/** A driver that receives pushed values (MQTT). `start` resolves once subscribed or throws. */
export interface SubscriptionDriver {
  readonly kind: 'subscription';
  start(request: ReadRequest, listener: SubscriptionListener): Promise<void>;
  close(): Promise<void>;
}

export type Driver = PollingDriver | SubscriptionDriver;

/** What a driver is created with. */
export interface DriverContext {
  /**
   * The driver's configuration: the template's `originTypes` entry for this driver with the
   * device's `drivers[originType]` merged over it and every `/{NAME}/` filled in.
   */
  readonly config: Readonly<Record<string, unknown>>;
  /** The device's origin key (the template's `origin` with variables filled). */
  readonly origin: string;
  /** Optional diagnostics sink; drivers never log secrets through it. */
  readonly log?: (message: string) => void;
  /**
   * Resolves and checks every address the driver connects to (the device address policy); default
   * a guard with the built-in rules only. The collector passes its registry's guard.
   */
  readonly guard?: AddressGuard;
}

/** A place a driver's configuration sends bytes to: a host (name or address), its port, the key. */
export interface DriverTarget {
  readonly host: string;
  /** Absent for ICMP. */
  readonly port?: number;
  /** The configuration key the host comes from (`basicConfig.address`, `brokerUrl`). */
  readonly path: string;
}

/** Creates drivers of one `originType`. */
export interface DriverFactory {
  readonly originType: string;
  /** Keys of this driver's configuration that hold secrets (dot paths): encrypted at rest, never shown. */
  readonly secretKeys: readonly string[];
  /**
   * Non-secret keys (dot paths, a key covers what is under it) that only tune reading: timing,
   * batching, topics. They never decide where bytes go or how the connection is protected. Every
   * other non-secret key, known to the driver or not, is part of the device's target: stored
   * secrets do not survive a change of it (docs/devices.md, "Secrets stay with their target").
   * Default none: everything that is not a secret is target.
   */
  readonly tuningKeys?: readonly string[];
  /** Checks a configuration without connecting; returns the problems, empty when usable. */
  check(config: Readonly<Record<string, unknown>>): string[];
  /**
   * Where a usable configuration sends bytes, for the address policy's check when a device is
   * stored; empty when the configuration is not usable (`check` says why).
   */
  targets(config: Readonly<Record<string, unknown>>): readonly DriverTarget[];
  create(context: DriverContext): Driver;
}
