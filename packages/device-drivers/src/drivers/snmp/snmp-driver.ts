/**
 * `svc-ds-drv-snmp`: SNMP v1, v2c and v3 (noAuthNoPriv, authNoPriv, authPriv) through net-snmp.
 * Scalar datapoints are read by GET (`originAddress` is the instance OID, e.g.
 * `1.3.6.1.2.1.1.3.0`, or its MIB name, `SNMPv2-MIB::sysUpTime.0`), table sets by walking their
 * columns (`rootAddress` is the table OID or name). Retries and timeout come from `basicConfig`.
 * See docs/devices.md, section SNMP.
 */
import type { PipelineInput } from '@triad/device-templates';
import { configProblems } from '../../config-values.js';
import type {
  DriverContext,
  DriverFactory,
  PollingDriver,
  ReadRequest,
  ReadResult,
  SubscriptionListener,
} from '../../driver.js';
import { mibNames } from './mib-names.js';
import { normalizeOid } from './oid.js';
import { readScalars } from './scalar-reads.js';
import { SnmpClient } from './snmp-client.js';
import { readSnmpSettings, SNMP_SECRET_KEYS } from './snmp-settings.js';
import { readTable } from './table-reads.js';
import type { SnmpTrapHub } from './trap-hub.js';
import { trapReadings } from './trap-readings.js';
import { summariseTrap } from './trap-summary.js';

export interface SnmpDriverOptions {
  /** Directories of MIB modules read before the system's (`TRIAD_MIB_DIRS`); default none. */
  readonly mibDirs?: readonly string[];
  /**
   * The process's trap receiver (`TRIAD_SNMP_TRAP_PORT`): devices with `subscription` datapoints
   * register with it while collected. Without it those datapoints get no values (logged).
   */
  readonly traps?: SnmpTrapHub;
}

/** The SNMP driver, resolving MIB names from `mibDirs`, the system's MIB directories and net-snmp's own modules. */
export function createSnmpDriver(options: SnmpDriverOptions = {}): DriverFactory {
  const mibDirs = options.mibDirs ?? [];
  return {
    originType: 'svc-ds-drv-snmp',
    secretKeys: SNMP_SECRET_KEYS,
    tuningKeys: ['basicConfig.retries', 'basicConfig.timeout', 'basicConfig.maxVarbinds', 'basicConfig.maxRepetitions'],
    check: (config) => configProblems(() => readSnmpSettings(config)),
    targets: (config) => {
      if (configProblems(() => readSnmpSettings(config)).length > 0) return [];
      const { address, port } = readSnmpSettings(config);
      return [{ host: address, port, path: 'basicConfig.address' }];
    },
    create(context: DriverContext): PollingDriver {
      const settings = readSnmpSettings(context.config);
      const client = new SnmpClient(settings, context.log, context.guard);
      // Read on the first name only: templates with numeric OIDs never touch the MIB files.
      const resolve = (address: string) => normalizeOid(address) ?? mibNames(mibDirs).resolve(address).oid;
      let unregister: (() => void) | undefined;
      return {
        kind: 'polling',
        async read(request: ReadRequest, signal: AbortSignal): Promise<ReadResult> {
          const updates: PipelineInput[] = [];
          if (request.points.length > 0)
            updates.push(...(await readScalars(client, settings, request.points, signal, context.log, resolve)));
          for (const table of request.tables)
            updates.push(await readTable(client, settings, table, signal, context.log, resolve));
          return { updates };
        },
        async start(request: ReadRequest, listener: SubscriptionListener): Promise<void> {
          const points = request.points.filter((point) => point.receiveMode === 'subscription');
          if (points.length === 0) return;
          const traps = options.traps;
          if (traps === undefined) {
            context.log?.(
              `${points.length} trap datapoint(s) get no values: the trap receiver is off (set TRIAD_SNMP_TRAP_PORT)`,
            );
            return;
          }
          unregister?.();
          unregister = await traps.register({
            host: settings.address,
            communities: settings.version === '3' ? [] : [settings.community],
            users: settings.v3 === undefined ? [] : [settings.v3.netSnmpUser],
            deliver: (trap) => {
              listener.updates(trapReadings(trap, points, resolve, Date.now()));
              listener.notification?.(summariseTrap(trap, (oid) => mibNames(mibDirs).nameOf(oid)));
            },
          });
        },
        close: () => {
          unregister?.();
          unregister = undefined;
          return client.close();
        },
      };
    },
  };
}

/** The SNMP driver with the system's MIB directories only. */
export const snmpDriver: DriverFactory = createSnmpDriver();
