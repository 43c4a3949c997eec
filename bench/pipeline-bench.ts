/**
 * Full-pipeline datapoint updates per second (issue 3). One map set with 8 datapoints, each with
 * a default value, a value map, a conversion expression, a unit conversion (from/to) and two
 * alarm evaluations; 1,000,000 updates with raw values that cross both alarm thresholds now and
 * then (about 1 update in 25 raises or clears an alarm). Measured for the sink API
 * (`evaluator.feed(update, sink)`) and the returning API (`evaluator.update(update)`); a third
 * line shows the same updates through a table set (8 rows), where rows are looked up by index.
 * Each figure is the median of 3 runs. Aim: 500,000 updates/s.
 * Run: `npm run bench -- pipeline` or `node --conditions=source --import tsx bench/pipeline-bench.ts` (< 30 s).
 */
import {
  createTemplateEvaluator,
  type Datapoint,
  type DatapointUpdate,
  type DeviceTemplate,
  type PipelineSink,
  type TemplateEvaluator,
} from '@triad/device-templates';
import { median, printTable } from './bench-utils.js';

const UPDATES = Number(process.env['BENCH_UPDATES'] ?? 1_000_000);
const RUNS = 3;
const DATAPOINTS = 8;

function datapoint(id: string): Datapoint {
  const alarm = (severity: number, expression: string) => ({
    expressions: [{ symbol: 'over', expression }],
    logic: 'over',
    severity,
    text: `${id} too high`,
    textHelp: 'Check the link',
    onStartup: true,
    audited: false,
    hidden: false,
    broadcast: false,
    facility: -1,
  });
  return {
    commonConfig: { datapointId: id, datapointType: 'DATAPOINT' },
    addressConfig: {
      dataType: 'DOUBLE',
      originType: 'svc-ds-drv-snmp',
      originDataType: 'Counter32',
      originAddress: `1.3.6.1.4.1.9.${id.length}`,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: '10s',
    },
    defaultValueConfig: { isDefault: true, rawValue: 0 },
    // Sentinel raw values the device reports instead of a measurement.
    valueMapConfig: {
      map: [
        { key: -1, value: 0.5 },
        { key: -2, value: 1.5 },
      ],
    },
    convConfig: { expression: 'datapoint.value * 8' },
    unitsConfig: { from: 'b', to: 'Kb', units: true },
    alertConfig: { evaluations: [alarm(401, 'datapoint.value > 900'), alarm(601, 'datapoint.value > 1000')] },
  };
}

function benchTemplate(type: 'map' | 'tableDynamic'): DeviceTemplate {
  const ids = Array.from({ length: DATAPOINTS }, (_, i) => `traffic${i}`);
  return {
    templateId: 'pipeline-bench',
    templateVersion: '1.0.0',
    description: 'Pipeline benchmark',
    origin: 'bench-device',
    originTypes: [{ originType: 'svc-ds-drv-snmp' }],
    datapointSets: [
      {
        datapointSetId: 'traffic',
        datapointSetType: type,
        alias: 'Traffic',
        description: '',
        ...(type === 'map' ? {} : { tableAddress: { rootAddress: '1.3.6.1.2.1.2.2' } }),
        datapoints: ids.map(datapoint),
      },
    ],
  };
}

// Raw bit counts: mostly under 900 Kb after conversion, sometimes between the thresholds or
// above both, sometimes null (default 0) or a mapped sentinel.
function updates(table: boolean): DatapointUpdate[] {
  const list: DatapointUpdate[] = [];
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let i = 0; i < 4096; i++) {
    const r = random();
    const rawValue =
      r < 0.02
        ? null
        : r < 0.04
          ? -1
          : r < 0.97
            ? Math.floor(random() * 110_000)
            : 118_000 + Math.floor(random() * 20_000);
    list.push({
      datapointSetId: 'traffic',
      datapointId: `traffic${i % DATAPOINTS}`,
      rawValue,
      timestamp: 1_700_000_000_000 + i,
      ...(table ? { tableIndex: (i >> 3) % 8 } : {}),
    });
  }
  return list;
}

function measure(
  label: string,
  evaluator: TemplateEvaluator,
  inputs: readonly DatapointUpdate[],
  api: 'sink' | 'return',
): [string, number, number] {
  let values = 0;
  let events = 0;
  const sink: PipelineSink = { value: () => void values++, event: () => void events++ };
  const mask = inputs.length - 1;
  const run = (count: number) => {
    if (api === 'sink') for (let i = 0; i < count; i++) evaluator.feed(inputs[i & mask]!, sink);
    else
      for (let i = 0; i < count; i++) {
        const out = evaluator.update(inputs[i & mask]!);
        values += out.values.length;
        events += out.events.length;
      }
  };
  run(200_000); // warm-up
  const rates: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.hrtime.bigint();
    run(UPDATES);
    rates.push(UPDATES / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  const perUpdate = events / (values || 1);
  return [label, median(rates.sort((a, b) => a - b)) / 1e3, perUpdate * 100];
}

const rows = [
  measure('map set, feed(update, sink)', createTemplateEvaluator(benchTemplate('map')), updates(false), 'sink'),
  measure(
    'map set, update(update) -> {values, events}',
    createTemplateEvaluator(benchTemplate('map')),
    updates(false),
    'return',
  ),
  measure(
    'table set (8 rows), feed(update, sink)',
    createTemplateEvaluator(benchTemplate('tableDynamic')),
    updates(true),
    'sink',
  ),
];
console.log(
  `${UPDATES.toLocaleString('en')} updates per run, median of ${RUNS} runs; ` +
    'each update: default + value map + conversion + units + 2 alarm evaluations',
);
printTable(['pipeline', 'k updates/s', 'events per 100 values'], rows);
console.log('aim: 500 k updates/s');
