// Test support for the semantic checks (excluded from the build by tsconfig.build.json).
import { documentFromValue } from '../../loading/value-document.js';
import type { Problem } from '../../problem.js';
import type { Doc } from '../../test-support/fixture-paths.js';
import { checkSemantics } from '../check-semantics.js';

/**
 * A template fixture: plain JSON data that tests edit freely (wrong shapes included) before
 * checking it; `objectAt`/`listAt` walk to the part a test edits.
 */
export type Fixture = Doc;

/**
 * A schema-valid template that triggers no semantic warning: SNMP and MQTT drivers, a map set, a
 * dynamic table, an MQTT-filled set, units, alerts, a calculated datapoint and five widgets.
 */
export function validTemplate(): Fixture {
  const snmp = (id: string, address: string, dataType = 'INTEGER') => ({
    commonConfig: { datapointId: id, datapointType: 'DATAPOINT', alias: id },
    addressConfig: {
      dataType,
      originType: 'netin-ds-drv-snmp',
      originDataType: 'INTEGER',
      originAddress: address,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: '1m',
    },
  });
  const alarm = (severity: number) => ({
    expressions: [
      { symbol: 'hot', expression: 'datapoint.value > 70' },
      { symbol: 'veryHot', expression: 'datapoint.value > 85' },
    ],
    logic: 'hot & veryHot',
    severity,
    text: 'Temperature is high',
    textHelp: 'Check the fans',
    onStartup: true,
    audited: false,
    hidden: false,
    broadcast: true,
    facility: -1,
    routing: { topic: 'alarms' },
  });
  return {
    schemaVersion: '1.0.0',
    templateId: 'SCALANCE X200',
    templateVersion: 'v1.2.0-beta.1',
    alias: 'SCALANCE X-200',
    description: 'Managed industrial switch',
    origin: '/{ICMP_IPAddress}/',
    rangerFilter: { description: 'SIMATIC NET, SCALANCE X2', deviceID: '^0x0A0[0-9A-F]$', vendorID: '0x002A' },
    originTypes: [
      {
        originType: 'netin-ds-drv-snmp',
        basicConfig: { retries: 2, address: '/{ICMP_IPAddress}/', port: 161, version: 2, timeout: 5000 },
        // Secrets come from each device: a variable, or nothing (DT_WARN_SEM_SECRET_LITERAL).
        snmpCommunities: { readCommunity: '/{SNMP_READ_COMMUNITY}/', writeCommunity: '' },
      },
      {
        originType: 'netin-ds-drv-mqtt',
        source: '/{DCP_IPAddress}/',
        topics: [
          {
            topicName: 'plant/+/status',
            datapointSet: 'mqttStatus',
            originStrategy: { strategyId: 'topic', expression: '^plant/([^/]+)/' },
            operationMode: 'extract',
          },
        ],
      },
    ],
    datapointSets: [
      {
        datapointSetId: 'deviceInfo',
        datapointSetType: 'map',
        alias: 'Device',
        description: '',
        broadcast: true,
        routing: { topic: 'device-info' },
        datapoints: [
          snmp('sysName', '1.3.6.1.2.1.1.5.0', 'STRING'),
          {
            ...snmp('uptime', '1.3.6.1.2.1.1.3.0', 'LONG'),
            unitsConfig: { from: 'ms', toBest: true, exclude: ['ns', 'mu'] },
          },
          {
            ...snmp('temperature', '1.3.6.1.4.1.4329.20.1.1.1.1.79.3.1.13.0'),
            unitsConfig: { from: 'C', to: 'F', units: true },
            alertConfig: { evaluations: [alarm(601), alarm(801)] },
          },
          {
            commonConfig: { datapointId: 'temperatureHalf', datapointType: 'DATAPOINT' },
            calcConfig: { expression: 'datapoint.value / 2' },
          },
          {
            commonConfig: { datapointId: 'uptimeProbe', datapointType: '#TIMEPOINT' },
            addressConfig: snmp('x', '1.3.6.1.2.1.1.3.0').addressConfig,
          },
        ],
      },
      {
        datapointSetId: 'ifTable',
        datapointSetType: 'tableDynamic',
        alias: 'Ports',
        description: 'Interfaces',
        tableAddress: { rootAddress: '1.3.6.1.2.1.2.2', indexes: ['ifIndex'] },
        datapoints: [
          snmp('ifIndex', '1.3.6.1.2.1.2.2.1.1'),
          {
            ...snmp('ifOperStatus', '1.3.6.1.2.1.2.2.1.8'),
            rowFilterConfig: { expressions: [{ symbol: 'up', expression: 'datapoint.value === 1' }], logic: 'up' },
            valueMapConfig: {
              map: [
                { key: 1, value: 'up' },
                { key: 2, value: 'down' },
              ],
            },
          },
        ],
      },
      {
        datapointSetId: 'mqttStatus',
        datapointSetType: 'map',
        alias: 'Status',
        description: '',
        datapoints: [
          {
            commonConfig: { datapointId: 'state', datapointType: 'SIMPLE' },
            addressConfig: {
              dataType: 'STRING',
              originType: 'netin-ds-drv-mqtt',
              originDataType: 'STRING',
              originAddress: 'payload.state',
              originAccessType: 'read-only',
              receiveMode: 'subscription',
              pollingGroup: '5s',
            },
          },
        ],
      },
    ],
    representation: [
      widget('device[deviceInfo]', 1, 1, 4, 2, 'map', { format: [{ order: 0, datapoint: 'sysName', alias: 'Name' }] }),
      widget('device[ifTable]', 1, 5, 4, 2, 'table', {
        format: [{ order: 0, datapoint: 'ifIndex', alias: 'Port' }],
        pageSize: 5,
      }),
      widget('device[deviceInfo.temperature]', 3, 1, 2, 1, 'metric', {}),
      widget('device[ifTable.0.ifOperStatus]', 3, 3, 2, 1, 'metric', {}),
      widget('device[deviceInfo]', 3, 5, 4, 2, 'gauge', {
        format: [{ datapoint: 'temperature', color: '#45A5F5' }],
        minValue: 0,
        maxValue: 100,
        ranges: [{ from: 0, to: 80, severity: 1 }],
      }),
    ],
  };
}

/** A representation item. */
export function widget(
  data: string,
  firstRow: number,
  firstColumn: number,
  widgetWidth: number,
  widgetHeight: number,
  widgetType: string,
  specificConfig: Fixture,
): Fixture {
  return {
    data,
    commonConfig: { firstRow, firstColumn, widgetWidth, widgetHeight, widgetType, widgetTitle: data },
    specificConfig,
  };
}

/** Runs the semantic checks on a value (positions are 0:0). */
export function semanticWarnings(value: unknown): Problem[] {
  return checkSemantics(documentFromValue(value, 'fixture.ndst.json'));
}

/** The problems of one code. */
export function withCode(problems: readonly Problem[], code: string): Problem[] {
  return problems.filter((p) => p.code === code);
}

/** 1-based line and column of the `occurrence`-th (1-based) match of `needle` in `text`. */
export function placeOf(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  let offset = -1;
  for (let i = 0; i < occurrence; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${needle} not found`);
  }
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
