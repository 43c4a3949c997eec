/**
 * A valid template that touches every part of the schema, and a helper that derives one small
 * mutation of it per test. Test-only (excluded from the build).
 */

import { objectAt, type Doc } from '../../test-support/fixture-paths.js';

export type { Doc };

export function evaluation(severity: number, extra: Doc = {}): Doc {
  return {
    expressions: [{ symbol: 'high', expression: 'datapoint.value > 80' }],
    logic: 'high',
    severity,
    text: 'Load is high',
    textHelp: 'Reduce the load or add capacity',
    onStartup: true,
    audited: false,
    hidden: false,
    broadcast: false,
    facility: -1,
    ...extra,
  };
}

export function addressConfig(extra: Doc = {}): Doc {
  return {
    dataType: 'INTEGER',
    originType: 'svc-ds-drv-snmp',
    originDataType: 'INTEGER',
    originAddress: '1.3.6.1.2.1.2.2.1.1',
    originAccessType: 'read-only',
    receiveMode: 'polling',
    pollingGroup: '1m',
    ...extra,
  };
}

export function common(datapointId: string, datapointType = 'DATAPOINT'): Doc {
  return { datapointId, datapointType, alias: datapointId, description: '' };
}

/** A fresh copy of the valid base template. */
export function baseTemplate(): Doc {
  return {
    schemaVersion: '1.0.0',
    templateId: 'Example switch',
    templateVersion: '1.2.0',
    alias: 'Example switch',
    description: 'Switch monitored over SNMP',
    rangerFilter: { description: 'Example.*Switch' },
    origin: '/{ICMP_IPAddress}/',
    originTypes: [
      {
        originType: 'svc-ds-drv-snmp',
        basicConfig: { retries: 2, address: '/{ICMP_IPAddress}/', port: 161, version: 2, timeout: 5000 },
      },
    ],
    datapointSets: [
      {
        datapointSetId: 'system',
        datapointSetType: 'map',
        alias: 'System',
        description: 'System group',
        datapoints: [
          {
            commonConfig: common('cpuLoad'),
            addressConfig: addressConfig({ originAddress: '1.3.6.1.4.1.9.9.109.1.1.1.1.5' }),
            alertConfig: { evaluations: [evaluation(401), evaluation(601, { logic: 'high' })] },
          },
          {
            commonConfig: common('uptime'),
            addressConfig: addressConfig({ originDataType: 'TimeTicks', originAddress: '1.3.6.1.2.1.1.3.0' }),
            unitsConfig: { from: 'ms', toBest: true, exclude: ['mu', 'ns'] },
          },
          {
            commonConfig: common('adminStatus'),
            addressConfig: addressConfig({ originAddress: '1.3.6.1.2.1.2.2.1.7.1' }),
            valueMapConfig: {
              map: [
                { key: 1, value: 'up' },
                { key: 2, value: 'down' },
              ],
            },
          },
          {
            commonConfig: common('model'),
            defaultValueConfig: { isDefault: true, value: 'unknown' },
          },
          {
            commonConfig: common('loadPercent'),
            calcConfig: { expression: 'datapoint.value * 100' },
            convConfig: { expression: 'datapoint.value' },
          },
        ],
      },
      {
        datapointSetId: 'ports',
        datapointSetType: 'tableDynamic',
        alias: 'Ports',
        description: '',
        tableAddress: { rootAddress: '1.3.6.1.2.1.2.2', indexes: ['ifIndex'] },
        broadcast: true,
        routing: { topic: 'ports', service: 'archive', serviceConfig: { folder: 'ports' } },
        datapoints: [
          { commonConfig: common('ifIndex'), addressConfig: addressConfig() },
          {
            commonConfig: common('ifInOctets', 'TIMEPOINT'),
            addressConfig: addressConfig({ originDataType: 'Counter32', originAddress: '1.3.6.1.2.1.2.2.1.10' }),
            rowFilterConfig: { expressions: [{ symbol: 'up', expression: 'datapoint.value > 0' }], logic: 'up' },
          },
          {
            commonConfig: common('ifOutOctets', '#TIMEPOINT'),
            addressConfig: addressConfig({ originAddress: '1.3.6.1.2.1.2.2.1.16' }),
          },
        ],
      },
    ],
    representation: [
      {
        data: 'device[system]',
        commonConfig: widget('map'),
        specificConfig: { format: [{ order: 0, datapoint: 'cpuLoad', alias: 'CPU', fieldType: 'numeric' }] },
      },
      {
        data: 'device[ports]',
        commonConfig: widget('table', 2),
        specificConfig: {
          format: [
            {
              order: 0,
              datapoint: 'ifIndex',
              alias: 'Index',
              fieldGroup: 'basic',
              filterable: true,
              width: 2,
              minScreenSize: 's',
            },
          ],
          pageSize: 5,
          filterable: true,
        },
      },
      { data: 'device[system.uptime]', commonConfig: widget('metric', 3), specificConfig: { titleEnabled: true } },
      {
        data: 'device[system.cpuLoad]',
        commonConfig: widget('gauge', 4),
        specificConfig: {
          format: [{ datapoint: 'cpuLoad', color: '#45A5F5' }],
          minValue: 0,
          maxValue: 100,
          ranges: [{ from: 80, to: 100, severity: 601 }],
        },
      },
    ],
  };
}

function widget(widgetType: string, firstRow = 1): Doc {
  return { firstRow, firstColumn: 1, widgetWidth: 4, widgetHeight: 2, widgetType, widgetTitle: widgetType };
}

/** The base template after `change` edited a copy of it. */
export function mutated(change: (doc: Doc) => void): Doc {
  const doc = baseTemplate();
  change(doc);
  return doc;
}

/** Shortcuts into the base template's parts, for mutations. */
export const at = {
  systemSet: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0),
  portsSet: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 1),
  /** the cpuLoad datapoint: commonConfig + addressConfig + alertConfig (alarms 401, 601) */
  cpu: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0, 'datapoints', 0),
  /** the uptime datapoint: commonConfig + addressConfig + unitsConfig */
  uptime: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0, 'datapoints', 1),
  /** the adminStatus datapoint: commonConfig + addressConfig + valueMapConfig */
  admin: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0, 'datapoints', 2),
  /** the model datapoint: commonConfig + defaultValueConfig */
  model: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0, 'datapoints', 3),
  /** the loadPercent datapoint: commonConfig + calcConfig + convConfig */
  calc: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 0, 'datapoints', 4),
  /** the ifOutOctets datapoint: #TIMEPOINT with commonConfig + addressConfig */
  timepoint: (doc: Doc): Doc => objectAt(doc, 'datapointSets', 1, 'datapoints', 2),
  widget: (doc: Doc, index: number): Doc => objectAt(doc, 'representation', index),
};
