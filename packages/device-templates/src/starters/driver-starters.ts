/**
 * Starter templates, one per driver: the driver's configuration keys (as the spec lists them for
 * its starter snippet) and one example datapoint set that exercises the usual blocks. Every
 * starter validates without errors or warnings; a test proves it.
 */

/** Short driver names accepted by `triad templates init --driver`. */
export const STARTER_DRIVERS = ['snmp', 'icmp', 's7', 'pnio', 'mqtt', 'modbus-tcp', 'opcua'] as const;
export type StarterDriver = (typeof STARTER_DRIVERS)[number];

/** The `originType` a starter declares for a driver (`svc-ds-drv-<driver>`). */
export function originTypeOf(driver: StarterDriver): string {
  return `svc-ds-drv-${driver}`;
}

interface DriverStarter {
  readonly title: string;
  readonly origin: string;
  readonly rangerFilter: Record<string, string>;
  readonly config: Record<string, unknown>;
  readonly datapointSetId: string;
  /** [datapointId, dataType, originDataType, originAddress, receiveMode] of the two example datapoints. */
  readonly points: readonly [Point, Point];
  /** Further datapoints, without alarms. */
  readonly morePoints?: readonly Point[];
}
type Point = readonly [string, string, string, string, 'polling' | 'subscription'];

const STARTERS: Readonly<Record<StarterDriver, DriverStarter>> = {
  snmp: {
    title: 'SNMP-managed switch',
    origin: '/{ICMP_IPAddress}/',
    rangerFilter: { description: '^Example Switch .*' },
    config: {
      basicConfig: { retries: 2, address: '/{ICMP_IPAddress}/', port: 161, version: 2, timeout: 5000 },
      // Secrets come from each device (DT_WARN_SEM_SECRET_LITERAL): a variable here, or the device's drivers.
      snmpCommunities: { readCommunity: '/{SNMP_READ_COMMUNITY}/', writeCommunity: '' },
      snmpV3Security: {
        authAlgorithm: 'MD5',
        privacyAlgorithm: 'DES',
        usmUser: '',
        authPassword: '',
        privacyPassword: '',
      },
    },
    datapointSetId: 'system',
    points: [
      ['sysDescr', 'STRING', 'OCTET_STRING', '1.3.6.1.2.1.1.1.0', 'polling'],
      ['sysUpTime', 'LONG', 'TimeTicks', '1.3.6.1.2.1.1.3.0', 'polling'],
    ],
  },
  icmp: {
    title: 'Any IP device checked by ping',
    origin: '/{ICMP_IPAddress}/',
    rangerFilter: {},
    config: { address: '/{ICMP_IPAddress}/', count: 4, timeout: 1000 },
    datapointSetId: 'reachability',
    points: [
      ['roundTripTime', 'DOUBLE', 'number', 'rtt', 'polling'],
      ['packetLoss', 'DOUBLE', 'number', 'packetLoss', 'polling'],
    ],
  },
  s7: {
    title: 'S7 controller',
    origin: '/{DCP_IPAddress}/',
    rangerFilter: { vendorID: '^0x002A$' },
    config: {
      s7basicConfig: { address: '/{DCP_IPAddress}/', rack: 0, slot: 2, deviceType: 'S7-300' },
      s7extraConfig: { requestTimeout: 15000, connectionTimeout: 3000, port: 102 },
      s7security: { password: '', accessProtection: false },
      s7diagnosticBuffer: { loggingEnabled: false },
    },
    datapointSetId: 'process',
    points: [
      ['tankLevel', 'FLOAT', 'REAL', 'DB1.DBD4', 'polling'],
      ['pumpRunning', 'BOOLEAN', 'BOOL', 'DB1.DBX0.0', 'polling'],
    ],
  },
  pnio: {
    title: 'PROFINET IO device',
    origin: '/{DCP_IPAddress}/',
    rangerFilter: { vendorID: '^0x002A$', deviceID: '^0x0A01$' },
    config: { ipAddress: '/{DCP_IPAddress}/', gsd: 'GSDML-V2.35-Example-Device-20240101' },
    datapointSetId: 'identification',
    points: [
      ['orderNumber', 'STRING', 'VisibleString', 'im0.orderId', 'polling'],
      ['moduleTemperature', 'FLOAT', 'Float32', 'slot1.subslot1.temperature', 'polling'],
    ],
  },
  mqtt: {
    title: 'Sensor publishing JSON over MQTT',
    origin: 'mqtt-sensor',
    rangerFilter: {},
    config: {
      source: 'sensor-gateway',
      topics: [
        {
          topicName: 'plant/line1/+/telemetry',
          datapointSet: 'telemetry',
          originStrategy: { strategyId: 'topic', expression: '^plant/line1/([^/]+)/telemetry$' },
          operationMode: 'extract',
        },
      ],
    },
    datapointSetId: 'telemetry',
    points: [
      ['temperature', 'DOUBLE', 'number', 'payload.temperature', 'subscription'],
      ['humidity', 'DOUBLE', 'number', 'payload.humidity', 'subscription'],
    ],
  },
  'modbus-tcp': {
    title: 'Modbus-TCP energy meter',
    origin: '/{DCP_IPAddress}/',
    rangerFilter: {},
    config: { address: '/{DCP_IPAddress}/', slaveId: 1, port: 502 },
    datapointSetId: 'meter',
    points: [
      ['activePower', 'FLOAT', 'float32', 'holding:30013', 'polling'],
      ['voltageL1', 'FLOAT', 'float32', 'holding:30001', 'polling'],
    ],
  },
  opcua: {
    title: 'Any OPC UA server',
    origin: '/{OPCUA_EndpointUrl}/',
    rangerFilter: {},
    config: {
      endpointUrl: '/{OPCUA_EndpointUrl}/',
      // No securityPolicy: it follows securityMode (Basic256Sha256 with Sign or SignAndEncrypt), so a
      // device can ask for security with securityMode alone. A user's password comes from each device.
      securityMode: 'None',
      identity: { type: 'anonymous' },
      nodes: {
        state: '/Objects/Server/ServerStatus/State',
        currentTime: '/Objects/Server/ServerStatus/CurrentTime',
        productName: '/Objects/Server/ServerStatus/BuildInfo/ProductName',
        softwareVersion: '/Objects/Server/ServerStatus/BuildInfo/SoftwareVersion',
      },
    },
    datapointSetId: 'serverStatus',
    points: [
      ['state', 'INTEGER', 'ServerState', 'state', 'polling'],
      ['currentTime', 'DATE', 'DateTime', 'currentTime', 'polling'],
    ],
    morePoints: [
      ['productName', 'STRING', 'String', 'productName', 'polling'],
      ['softwareVersion', 'STRING', 'String', 'softwareVersion', 'polling'],
    ],
  },
};

/**
 * Builds the starter template of a driver as a plain object, keys in the order people read them.
 * `templateId` defaults to `example-<driver>`.
 */
export function createStarterTemplate(
  driver: StarterDriver,
  options: { templateId?: string } = {},
): Record<string, unknown> {
  const starter = STARTERS[driver];
  const originType = originTypeOf(driver);
  const [first, second] = starter.points;
  const template: Record<string, unknown> = {
    templateId: options.templateId ?? `example-${driver}`,
    templateVersion: '1.0.0',
    alias: starter.title,
    description:
      `${starter.title}: starter template for the ${originType} driver. Replace the example datapoints ` +
      `with the device's own.`,
  };
  if (Object.keys(starter.rangerFilter).length > 0) template['rangerFilter'] = starter.rangerFilter;
  template['origin'] = starter.origin;
  template['originTypes'] = [{ originType, ...starter.config }];
  template['datapointSets'] = [
    {
      datapointSetId: starter.datapointSetId,
      datapointSetType: 'map',
      alias: `${starter.datapointSetId} values`,
      description: `Example datapoints read through ${originType}.`,
      datapoints: [
        {
          commonConfig: {
            datapointId: first[0],
            datapointType: 'DATAPOINT',
            alias: first[0],
            description: `Example datapoint ${first[0]}.`,
          },
          addressConfig: address(originType, first),
        },
        {
          commonConfig: {
            datapointId: second[0],
            datapointType: 'DATAPOINT',
            alias: second[0],
            description: `Example datapoint ${second[0]} with an alarm.`,
          },
          addressConfig: address(originType, second),
          alertConfig: {
            evaluations: [
              {
                expressions: [{ symbol: 'missing', expression: 'datapoint.value === null' }],
                logic: 'missing',
                severity: 401,
                text: `${second[0]} has no value`,
                textHelp:
                  `The driver could not read ${second[0]}; check that the device is reachable and the ` +
                  `address is right.`,
                onStartup: true,
                audited: false,
                hidden: false,
                broadcast: false,
                facility: -1,
              },
            ],
          },
        },
        ...(starter.morePoints ?? []).map((point) => ({
          commonConfig: {
            datapointId: point[0],
            datapointType: 'DATAPOINT',
            alias: point[0],
            description: `Example datapoint ${point[0]}.`,
          },
          addressConfig: address(originType, point),
        })),
      ],
    },
  ];
  return template;
}

function address(
  originType: string,
  [, dataType, originDataType, originAddress, receiveMode]: Point,
): Record<string, string> {
  return {
    dataType,
    originType,
    originDataType,
    originAddress,
    originAccessType: 'read-only',
    receiveMode,
    pollingGroup: '30s',
  };
}
