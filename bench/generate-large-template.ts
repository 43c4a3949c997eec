/**
 * Deterministic generator of a large, valid template for benchmarks.
 *
 * `generateLargeTemplate(5000)` gives a value whose `JSON.stringify(value, null, 2)` is about
 * 6 MB and whose js-yaml `dump` is about 4.5 MB. The same input always gives the same value
 * (no clock, no random source), so runs are comparable.
 */

const DATAPOINTS_PER_SET = 250;
const ORIGIN_TYPE = 'svc-ds-drv-modbus';
const POLLING_GROUPS = ['10s', '30s', '1m', '5m'];

/** Descriptions are padded with this filler to reach realistic file sizes. */
const FILLER =
  'Measured by the device and collected by the driver at every polling cycle; ' +
  'see the vendor manual for the register map and the scaling applied to raw values. ';

/** `text` padded with filler, or cut, to `length` characters (trailing blanks dropped). */
function pad(text: string, length: number): string {
  let out = text + ' ';
  while (out.length < length) out += FILLER;
  return out.slice(0, length).trimEnd();
}

function datapoint(setIndex: number, index: number): object {
  const id = `dp_${setIndex}_${index}`;
  const register = 40_001 + index;
  return {
    commonConfig: {
      datapointId: id,
      datapointType: index % 3 === 0 ? 'SIMPLE' : 'DATAPOINT',
      alias: `Datapoint ${setIndex}.${index}`,
      description: pad(`Value ${index} of set ${setIndex}.`, 30),
    },
    addressConfig: {
      dataType: 'INTEGER',
      originType: ORIGIN_TYPE,
      originDataType: 'uint16',
      originAddress: `${register}`,
      originAccessType: 'read-only',
      receiveMode: 'polling',
      pollingGroup: POLLING_GROUPS[index % POLLING_GROUPS.length],
    },
    alertConfig: {
      evaluations: [
        {
          expressions: [{ symbol: 'x', expression: `datapoint.value > ${index % 100}` }],
          logic: 'x',
          severity: 201 + 200 * (index % 4), // an alarm: info, warning, error or critical
          text: `Value of ${id} is above its threshold`,
          textHelp: pad(`Check the wiring of ${id} and the sensor it reads.`, 30),
          onStartup: index % 2 === 0,
          audited: false,
          hidden: false,
          broadcast: true,
          facility: index % 16,
        },
      ],
    },
  };
}

/** Builds a template with `datapoints` datapoints spread over sets of 250. */
export function generateLargeTemplate(datapoints: number): object {
  const datapointSets: object[] = [];
  for (let setIndex = 0, made = 0; made < datapoints; setIndex += 1) {
    const count = Math.min(DATAPOINTS_PER_SET, datapoints - made);
    const items: object[] = [];
    for (let i = 0; i < count; i += 1) items.push(datapoint(setIndex, made + i));
    datapointSets.push({
      datapointSetId: `set_${setIndex}`,
      datapointSetType: 'map',
      alias: `Set ${setIndex}`,
      description: pad(`Datapoint set ${setIndex}.`, 200),
      datapoints: items,
    });
    made += count;
  }
  return {
    templateId: 'bench-large-template',
    templateVersion: '1.0.0',
    origin: 'bench',
    description: pad('A generated template for load and validation benchmarks.', 300),
    originTypes: [{ originType: ORIGIN_TYPE, port: 502 }],
    datapointSets,
  };
}
