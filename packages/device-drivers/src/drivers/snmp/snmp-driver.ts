/**
 * `svc-ds-drv-snmp`: SNMP v1, v2c and v3 (noAuthNoPriv, authNoPriv, authPriv) through net-snmp.
 * Scalar datapoints are read by GET (`originAddress` is the instance OID, e.g.
 * `1.3.6.1.2.1.1.3.0`), table sets by walking their columns (`rootAddress` is the table OID).
 * Retries and timeout come from `basicConfig`. See docs/devices.md, section SNMP.
 */
import type { PipelineInput } from '@triad/device-templates';
import { configProblems } from '../../config-values.js';
import type { DriverContext, DriverFactory, PollingDriver, ReadRequest, ReadResult } from '../../driver.js';
import { readScalars } from './scalar-reads.js';
import { SnmpClient } from './snmp-client.js';
import { readSnmpSettings, SNMP_SECRET_KEYS } from './snmp-settings.js';
import { readTable } from './table-reads.js';

export const snmpDriver: DriverFactory = {
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
    return {
      kind: 'polling',
      async read(request: ReadRequest, signal: AbortSignal): Promise<ReadResult> {
        const updates: PipelineInput[] = [];
        if (request.points.length > 0)
          updates.push(...(await readScalars(client, settings, request.points, signal, context.log)));
        for (const table of request.tables) updates.push(await readTable(client, settings, table, signal, context.log));
        return { updates };
      },
      close: () => client.close(),
    };
  },
};
