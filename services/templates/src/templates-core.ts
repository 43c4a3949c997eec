import { randomBytes } from 'node:crypto';
import type { Server } from 'node:net';
import { AddressGuard, defaultDriverRegistry, mibNames, SnmpTrapHub, type DriverRegistry } from '@triad/device-drivers';
import type { OidNameResolver } from '@triad/device-templates';
import type { Database } from '@triad/db';
import { SECRET_KEY_BYTES, SecretCipher, type ConsoleLink } from '@triad/service-kit';
import { DeviceCommands } from './commands/device-commands.js';
import type { TemplatesConfig } from './config.js';
import { devicePolicy } from './devices/device-policy.js';
import { DEVICE_SECRET } from './devices/device-secrets.js';
import type { DeviceSupervisorOptions } from './devices/device-supervisor.js';
import { DeviceCollection } from './instances/device-collection.js';
import { PatternCache } from './matching/pattern-cache.js';
import { AccessPolicy } from './policies/access-policy.js';
import { DeviceRepository } from './repositories/device-repository.js';
import { DeviceHistoryRepository } from './repositories/device-history-repository.js';
import { HistoryWriter } from './devices/history-writer.js';
import { HistorySweeper } from './devices/history-sweeper.js';
import { HistoryWriteThread } from './repositories/history-write-thread.js';
import { HISTORY_BATCH_SIZE } from './model/device-history.js';
import { OpcuaCertificateStore } from './devices/opcua-certificate-store.js';
import { OpcuaCertificateRepository } from './repositories/opcua-certificate-repository.js';
import { TemplateRepository } from './repositories/template-repository.js';
import type { TemplatesDatabase } from './repositories/templates-tables.js';
import { TokenRepository } from './repositories/token-repository.js';

/** Rows deleted per table and statement by the history sweep. */
const HISTORY_SWEEP_BATCH = 5_000;

/** Everything behind the HTTP layer of the template service, over one database. */
export interface TemplatesCore {
  readonly templates: TemplateRepository;
  /** Who may do what (the access hook and the device routes ask it). */
  readonly access: AccessPolicy;
  /** Compiled rangerFilter patterns, shared by /match and discovery. */
  readonly patterns: PatternCache;
  readonly registry: DriverRegistry;
  readonly devices: DeviceRepository;
  /** Which devices this instance collects, and their values and streams wherever they are collected. */
  readonly collection: DeviceCollection;
  readonly deviceCommands: DeviceCommands;
  /** Resolves MIB names in SNMP addresses for the validator (`TRIAD_MIB_DIRS`, then the system's modules). */
  readonly oidNames: OidNameResolver;
  /** Stored device values (decision 0050). */
  readonly history: DeviceHistoryRepository;
  /** Queues collected values for the history; undefined when `historyEnabled` is false. */
  readonly historyWriter: HistoryWriter | undefined;
  /** The SNMP trap receiver (`TRIAD_SNMP_TRAP_PORT`); undefined when off. */
  readonly snmpTraps: SnmpTrapHub | undefined;
  /** The OPC UA client certificate and trusted server certificates, kept in the database (decision 0048). */
  readonly opcuaCertificates: OpcuaCertificateStore;
}

export interface CreateTemplatesCoreOptions {
  readonly config: TemplatesConfig;
  /** An open, migrated database; not closed by the core. */
  readonly database: Database<TemplatesDatabase>;
  /** This instance's id among several on one database (work leases). */
  readonly instanceId: string;
  readonly log: DeviceSupervisorOptions['log'];
  /** Clock for createdAt/updatedAt of templates; default the system clock. */
  readonly now?: () => Date;
  /** The app, whose listening port devices may never reach (`devicePolicy`). */
  readonly app?: { readonly server: Pick<Server, 'address'> };
  /** Every service's console; their ports are refused to devices too. */
  readonly consoleLinks?: () => readonly ConsoleLink[];
  /** Seals device credentials; default a random key held in memory (tests). */
  readonly cipher?: SecretCipher;
  /** Device drivers; default every driver Triad ships, behind the device address policy. */
  readonly registry?: DriverRegistry;
}

/** Wires the repositories, the access policy, the device collection and the device commands. */
export function createTemplatesCore(options: CreateTemplatesCoreOptions): TemplatesCore {
  const { config, database, log } = options;
  const templates = new TemplateRepository(database, options.now);
  const access = new AccessPolicy({
    tokens: new TokenRepository(database),
    adminToken: config.adminToken,
    readAccess: config.readAccess,
    devicesReadAccess: config.devicesReadAccess,
    writeAccess: config.writeAccess,
  });
  const patterns = new PatternCache({ log });
  const guard = new AddressGuard(devicePolicy(config, options.app, options.consoleLinks));
  const mibDirs = splitMibDirs(config.mibDirs);
  // One trap receiver for the process, bound when the first device with trap datapoints is collected.
  const snmpTraps =
    config.snmpTrapPort === undefined || options.registry !== undefined
      ? undefined
      : new SnmpTrapHub({
          port: config.snmpTrapPort,
          address: config.snmpTrapAddress,
          log: (message) => log.warn({ port: config.snmpTrapPort }, message),
        });
  const cipher = options.cipher ?? new SecretCipher([randomBytes(SECRET_KEY_BYTES)], DEVICE_SECRET);
  const opcuaCertificates = new OpcuaCertificateStore({ repository: new OpcuaCertificateRepository(database), cipher });
  const registry =
    options.registry ??
    defaultDriverRegistry({
      mqttBrokerUrl: config.mqttUrl,
      guard,
      mibDirs,
      ...(snmpTraps ? { snmpTraps } : {}),
      opcua: { keyPair: () => opcuaCertificates.keyPair(), trust: opcuaCertificates.trust },
    });
  const oidNames = mibNameResolver(mibDirs);
  const devices = new DeviceRepository(database);
  const history = new DeviceHistoryRepository(database);
  const historyWriter = config.historyEnabled
    ? new HistoryWriter({
        // SQLite files are written from a thread of their own; PostgreSQL writes do not block this one.
        repository:
          database.dialect === 'sqlite' && database.location !== ':memory:'
            ? new HistoryWriteThread({ file: database.location, repository: history, log })
            : history,
        maxQueued: config.historyQueueLimit,
        flushMs: config.historyFlushMs,
        batchSize: HISTORY_BATCH_SIZE,
        log,
      })
    : undefined;
  const sweeper = new HistorySweeper({
    repository: history,
    rawRetentionMs: config.historyRawRetentionMs,
    minuteRetentionMs: config.historyMinuteRetentionMs,
    // As the node manager's history: a tenth of the raw retention, at most 10 min.
    intervalMs: Math.min(600_000, config.historyRawRetentionMs / 10),
    batchSize: HISTORY_SWEEP_BATCH,
    log,
  });
  const collection = new DeviceCollection({
    database,
    devices,
    instanceId: options.instanceId,
    leaseTtlMs: config.leaseTtlMs,
    leaseHeartbeatMs: config.leaseHeartbeatMs,
    log,
    ...(historyWriter ? { history: historyWriter } : {}),
    sweeper,
    supervisor: {
      devices,
      templates,
      registry,
      cipher,
      maxConcurrentReads: config.maxConcurrentReads,
      log,
      collect: config.collectDevices,
    },
  });
  const deviceCommands = new DeviceCommands({ devices, templates, registry, cipher, collection });
  return {
    templates,
    access,
    patterns,
    registry,
    devices,
    collection,
    deviceCommands,
    oidNames,
    history,
    historyWriter,
    snmpTraps,
    opcuaCertificates,
  };
}

/**
 * Resolves MIB names from `directories` (`TRIAD_MIB_DIRS`), then the system's modules and those
 * net-snmp ships (decision 0049); the modules are read at the first name, once per process.
 */
export function mibNameResolver(directories: readonly string[]): OidNameResolver {
  return (name) => mibNames(directories).resolve(name);
}

/** `TRIAD_MIB_DIRS`: colon-separated, empty entries ignored. */
export function splitMibDirs(value: string | undefined): string[] {
  return (value ?? '')
    .split(':')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
}
