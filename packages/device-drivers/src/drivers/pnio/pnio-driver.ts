/**
 * `svc-ds-drv-pnio`: PROFINET IO. Identifying a device (DCP Identify) means sending and
 * receiving raw Ethernet frames (EtherType 0x8892), which needs an AF_PACKET socket; Node.js
 * offers none, and Triad ships no native helper. So this driver accepts its configuration, and
 * every read ends with `unsupported`, saying so: the device shows `down` with that reason instead
 * of silently never reading. See docs/devices.md.
 */
import { assertFilled, configProblems, stringAt } from '../../config-values.js';
import type { DriverContext, DriverFactory, PollingDriver } from '../../driver.js';
import { DriverError } from '../../driver-error.js';

export const PNIO_UNSUPPORTED =
  'PROFINET DCP needs raw Ethernet (layer-2) access, which this Triad build does not have on any host; ' +
  'read the device through its SNMP or S7 interface instead';

function settings(config: Readonly<Record<string, unknown>>): { ipAddress: string } {
  return { ipAddress: assertFilled('ipAddress', stringAt(config, 'ipAddress')) };
}

export const pnioDriver: DriverFactory = {
  originType: 'svc-ds-drv-pnio',
  secretKeys: [],
  check: (config) => configProblems(() => settings(config)),
  // It never connects; its address is still checked, so that a device stored today is not refused later.
  targets: (config) =>
    configProblems(() => settings(config)).length > 0 ? [] : [{ host: settings(config).ipAddress, path: 'ipAddress' }],
  create(context: DriverContext): PollingDriver {
    settings(context.config);
    return {
      kind: 'polling',
      read: () => Promise.reject(new DriverError('unsupported', PNIO_UNSUPPORTED)),
      close: () => Promise.resolve(),
    };
  },
};
