import type { AddressGuard } from './address-guard.js';
import { DriverRegistry } from './driver-registry.js';
import { icmpDriver } from './drivers/icmp/icmp-driver.js';
import { modbusTcpDriver } from './drivers/modbus-tcp/modbus-tcp-driver.js';
import { createMqttDriver } from './drivers/mqtt/mqtt-driver.js';
import { createOpcuaDriver, type OpcuaDriverOptions } from './drivers/opcua/opcua-driver.js';
import { pnioDriver } from './drivers/pnio/pnio-driver.js';
import { s7Driver } from './drivers/s7/s7-driver.js';
import { createSnmpDriver } from './drivers/snmp/snmp-driver.js';
import type { SnmpTrapHub } from './drivers/snmp/trap-hub.js';

/** Settings of the shipped drivers that come from the host (the service's configuration). */
export interface DefaultDriverOptions {
  /** The broker of MQTT devices that name none (`TRIAD_MQTT_URL`). */
  readonly mqttBrokerUrl?: string | undefined;
  /** Directories of MIB modules read before the system's (`TRIAD_MIB_DIRS`). */
  readonly mibDirs?: readonly string[];
  /** The process's SNMP trap receiver (`TRIAD_SNMP_TRAP_PORT`); default none, traps are not received. */
  readonly snmpTraps?: SnmpTrapHub;
  /** Checks every address the drivers connect to; default the built-in rules only. */
  readonly guard?: AddressGuard;
  /** The OPC UA driver's application certificate and server-certificate trust; default in memory. */
  readonly opcua?: OpcuaDriverOptions;
}

/** Every driver Triad ships, in a fresh registry. */
export function defaultDriverRegistry(options: DefaultDriverOptions = {}): DriverRegistry {
  const mqtt = createMqttDriver(options.mqttBrokerUrl ? { defaultBrokerUrl: options.mqttBrokerUrl } : {});
  const snmp = createSnmpDriver({
    ...(options.mibDirs ? { mibDirs: options.mibDirs } : {}),
    ...(options.snmpTraps ? { traps: options.snmpTraps } : {}),
  });
  const opcua = createOpcuaDriver(options.opcua);
  return new DriverRegistry([icmpDriver, modbusTcpDriver, snmp, mqtt, s7Driver, pnioDriver, opcua], options.guard);
}
