/** Device drivers and the collector: see docs/devices.md. */
export type {
  Driver,
  DriverContext,
  DriverFactory,
  PointRequest,
  PollingDriver,
  ReadRequest,
  ReadResult,
  SubscriptionDriver,
  SubscriptionListener,
  DeviceNotification,
  TableRequest,
  DriverTarget,
  ReadingProblem,
} from './driver.js';
export { typedValue, type TypedValue, type DataType } from './typed-value.js';
export { DriverError, toDriverError, type DriverErrorCode } from './driver-error.js';
export { DriverRegistry } from './driver-registry.js';
export { planCollection, isEmptyRequest, type DriverPlan, type PollPlan } from './collection-plan.js';
export { pollingPeriod } from './polling-group.js';
export { hasPlaceholder, substituteVariables } from './substitute-variables.js';
export { mergeDriverConfig } from './merge-driver-config.js';
export { prepareDevice, type DeviceBinding, type DeviceProblem, type PreparedDevice } from './prepare-device.js';
export {
  DeviceCollector,
  type CollectorSink,
  type CollectorProblem,
  type DeviceCollectorOptions,
  type DeviceError,
  type DeviceState,
} from './device-collector.js';
export { Limiter } from './limiter.js';
export {
  AddressPolicy,
  parseAddressList,
  hostAddress,
  normalizeHostName,
  type AddressList,
  type AddressPolicyOptions,
  type AddressRefusal,
  type AddressRule,
} from './address-policy.js';
export {
  AddressGuard,
  AddressRefusedError,
  refusedError,
  type ResolveAll,
  type ConnectLookup,
} from './address-guard.js';
export { parseIp, parseCidr, formatIp, type IpAddress, type Cidr } from './ip-address.js';
export { valueAt, numberAt, stringAt, booleanAt, configProblems, assertFilled, hostAt } from './config-values.js';
export { icmpDriver } from './drivers/icmp/icmp-driver.js';
export { modbusTcpDriver } from './drivers/modbus-tcp/modbus-tcp-driver.js';
export { snmpDriver, createSnmpDriver, type SnmpDriverOptions } from './drivers/snmp/snmp-driver.js';
export {
  MibNames,
  mibNames,
  SYSTEM_MIB_DIRS,
  MIB_LIMITS,
  type MibLimits,
  bundledMibDir,
  type MibResolution,
} from './drivers/snmp/mib-names.js';
export {
  SnmpTrapReceiver,
  TRAP_RECEIVER_LIMITS,
  type ReceivedTrap,
  type TrapCredentials,
  type TrapReceiverLimits,
  type TrapReceiverOptions,
  type TrapReceiverStats,
  type TrapSource,
  type TrapVarbind,
} from './drivers/snmp/trap-receiver.js';
export { trapReadings, type TrapValue } from './drivers/snmp/trap-readings.js';
export { SnmpTrapHub, type SnmpTrapHubOptions, type TrapRegistration } from './drivers/snmp/trap-hub.js';
export { pnioDriver } from './drivers/pnio/pnio-driver.js';
export { s7Driver } from './drivers/s7/s7-driver.js';
export { mqttDriver, createMqttDriver, type MqttDriverOptions } from './drivers/mqtt/mqtt-driver.js';
export {
  opcuaDriver,
  createOpcuaDriver,
  OPCUA_ORIGIN_TYPE,
  type OpcuaDriverOptions,
} from './drivers/opcua/opcua-driver.js';
export { probeOpcuaServers, type OpcuaProbeOptions, type OpcuaProbeResult } from './drivers/opcua/opcua-discovery.js';
export {
  createApplicationCertificate,
  keyPairFromPem,
  thumbprintOf,
  MemoryServerCertificateTrust,
  type OpcuaKeyPair,
  type ServerCertificateTrust,
} from './drivers/opcua/opcua-certificates.js';
export { MqttConnectionPool } from './drivers/mqtt/mqtt-connection-pool.js';
export {
  expandTargets,
  sweepSysDescr,
  SYS_DESCR_OID,
  MAX_TARGETS,
  type SweepOptions,
  type SweepResult,
} from './discover-snmp.js';
export { defaultDriverRegistry, type DefaultDriverOptions } from './default-drivers.js';
