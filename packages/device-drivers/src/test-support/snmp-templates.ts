/**
 * Small device templates for the SNMP driver's tests and benchmark: datapoints read by
 * `svc-ds-drv-snmp` at the fastest polling group, in map and table sets.
 */
import type { AddressConfig, Datapoint, DatapointSet, DeviceTemplate, Evaluation } from '@triad/device-templates';

export const SNMP_ORIGIN_TYPE = 'svc-ds-drv-snmp';

/** A datapoint read from `originAddress` (an OID, or a column number in a table set). */
export function snmpPoint(
  datapointId: string,
  originAddress: string,
  dataType: AddressConfig['dataType'] = 'DOUBLE',
  extra: Omit<Datapoint, 'commonConfig' | 'addressConfig'> = {},
  originDataType = 'INTEGER',
): Datapoint {
  return {
    commonConfig: { datapointId, datapointType: 'DATAPOINT', alias: datapointId },
    addressConfig: {
      dataType,
      originType: SNMP_ORIGIN_TYPE,
      originDataType,
      originAddress,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: '5s',
    },
    ...extra,
  };
}

/** An alarm of `severity` while `expression` holds. */
export function alarmWhen(severity: number, expression: string, text: string): Evaluation {
  return {
    expressions: [{ symbol: 'c', expression }],
    logic: 'c',
    severity,
    text,
    textHelp: `${text}: see the device`,
    onStartup: true,
    audited: false,
    hidden: false,
    broadcast: false,
    facility: -1,
  };
}

export function mapSet(datapointSetId: string, datapoints: Datapoint[]): DatapointSet {
  return { datapointSetId, datapointSetType: 'map', alias: datapointSetId, description: '', datapoints };
}

export function tableSet(
  datapointSetId: string,
  type: 'tableStatic' | 'tableDynamic',
  rootAddress: string,
  indexes: string[],
  datapoints: Datapoint[],
): DatapointSet {
  return {
    datapointSetId,
    datapointSetType: type,
    alias: datapointSetId,
    description: '',
    tableAddress: { rootAddress, indexes },
    datapoints,
  };
}

/** A template whose origin and agent address are `/{ICMP_IPAddress}/`, with `config` as its SNMP settings. */
export function snmpTemplate(sets: DatapointSet[], config: Record<string, unknown> = {}): DeviceTemplate {
  return {
    templateId: 'snmp-test',
    templateVersion: '1.0.0',
    description: 'A template for SNMP driver tests',
    origin: '/{ICMP_IPAddress}/',
    originTypes: [
      {
        originType: SNMP_ORIGIN_TYPE,
        basicConfig: { address: '/{ICMP_IPAddress}/', port: 161, version: 2, retries: 0, timeout: 500 },
        snmpCommunities: { readCommunity: 'public' },
        ...config,
      },
    ],
    datapointSets: sets,
  };
}
