import { DriverRegistry } from './driver-registry.js';
import { icmpDriver } from './drivers/icmp/icmp-driver.js';
import { modbusTcpDriver } from './drivers/modbus-tcp/modbus-tcp-driver.js';
import { mqttDriver } from './drivers/mqtt/mqtt-driver.js';
import { pnioDriver } from './drivers/pnio/pnio-driver.js';
import { s7Driver } from './drivers/s7/s7-driver.js';
import { snmpDriver } from './drivers/snmp/snmp-driver.js';

/** Every driver Triad ships, in a fresh registry. */
export function defaultDriverRegistry(): DriverRegistry {
  return new DriverRegistry([icmpDriver, modbusTcpDriver, snmpDriver, mqttDriver, s7Driver, pnioDriver]);
}
