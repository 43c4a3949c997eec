// Test support for the value pipeline (excluded from the build by tsconfig.build.json).
import type { Datapoint, DatapointSet, DeviceTemplate, Evaluation } from '../../generated/device-template.generated.js';
import type { PipelineEvent, PipelineOutput } from '../pipeline-types.js';

/** A datapoint read by a driver, with the given extra blocks. */
export function read(datapointId: string, blocks: Omit<Datapoint, 'commonConfig' | 'addressConfig'> = {}): Datapoint {
  return {
    commonConfig: { datapointId, datapointType: 'DATAPOINT' },
    addressConfig: {
      dataType: 'DOUBLE',
      originType: 'svc-ds-drv-snmp',
      originDataType: 'INTEGER',
      originAddress: `1.3.6.1.4.1.${datapointId.length}`,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: '1m',
    },
    ...blocks,
  };
}

/** A calculated datapoint. */
export function calc(
  datapointId: string,
  expression: string,
  blocks: Omit<Datapoint, 'commonConfig' | 'calcConfig'> = {},
): Datapoint {
  return { commonConfig: { datapointId, datapointType: 'DATAPOINT' }, calcConfig: { expression }, ...blocks };
}

/** An evaluation with one expression named `c` (logic `c`), or the given expressions and logic. */
export function evaluation(severity: number, expression: string, overrides: Partial<Evaluation> = {}): Evaluation {
  return {
    expressions: [{ symbol: 'c', expression }],
    logic: 'c',
    severity,
    text: `text ${severity}`,
    textHelp: `help ${severity}`,
    onStartup: true,
    audited: false,
    hidden: false,
    broadcast: false,
    facility: -1,
    ...overrides,
  };
}

export function set(datapointSetId: string, datapoints: Datapoint[], extra: Partial<DatapointSet> = {}): DatapointSet {
  return { datapointSetId, datapointSetType: 'map', alias: datapointSetId, description: '', datapoints, ...extra };
}

export function table(
  datapointSetId: string,
  type: 'tableStatic' | 'tableDynamic',
  indexes: string[],
  datapoints: Datapoint[],
): DatapointSet {
  return set(datapointSetId, datapoints, {
    datapointSetType: type,
    tableAddress: { rootAddress: '1.3.6.1.2.1.2.2', indexes },
  });
}

export function template(...sets: DatapointSet[]): DeviceTemplate {
  return {
    templateId: 'pipeline-test',
    templateVersion: '1.0.0',
    description: 'A template for pipeline tests',
    origin: 'device-1',
    originTypes: [{ originType: 'svc-ds-drv-snmp' }],
    datapointSets: sets,
  };
}

/** A fixed clock: 1000, 2000, 3000... */
export function steppingClock(): () => number {
  let now = 0;
  return () => (now += 1000);
}

/** `type severity datapointId` of each event, for compact assertions. */
export function eventSummary(output: PipelineOutput | readonly PipelineEvent[]): string[] {
  const events = Array.isArray(output) ? output : (output as PipelineOutput).events;
  return events.map((e: PipelineEvent) => {
    if (e.type === 'update-rejected') return `${e.type} ${e.code}`;
    if (e.type === 'evaluation-error') return `${e.type} ${e.stage} ${e.code} ${e.datapointId}`;
    return `${e.type} ${e.severity} ${e.datapointId}${e.tableIndex !== undefined ? `[${e.tableIndex}]` : ''}`;
  });
}

/** `datapointId=value` of each value result. */
export function valueSummary(output: PipelineOutput): string[] {
  return output.values.map((v) => {
    const index = v.tableIndex !== undefined ? `[${v.tableIndex}]` : '';
    return `${v.datapointId}${index}=${JSON.stringify(v.value)}${v.unit ? ` ${v.unit}` : ''}`;
  });
}
