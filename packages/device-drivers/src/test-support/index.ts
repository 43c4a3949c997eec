/** Test support shared with the services' tests: real servers started on loopback. */
export { describeWithPrograms, programAvailable, freePort, waitFor } from './real-server.js';
export {
  startSnmpd,
  freeUdpPort,
  SNMPD,
  SNMPD_INSTALL,
  SNMPD_V3,
  SNMPD_CONTEXT,
  type SnmpdServer,
} from './snmpd-server.js';
export { startMosquitto, MOSQUITTO, MOSQUITTO_INSTALL, type MosquittoServer } from './mosquitto-server.js';
export { startOpcuaServer, OPCUA_BAD_STATUS, type OpcuaTestServer } from './opcua-server.js';
