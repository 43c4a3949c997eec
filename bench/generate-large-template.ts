/**
 * Deterministic generator of a large, template-shaped document for benchmarks.
 *
 * `generateLargeTemplate(5000)` gives a value whose `JSON.stringify(value, null, 2)` is about
 * 6 MB and whose js-yaml `dump` is about 4.5 MB. The same input always gives the same value
 * (no clock, no random source), so runs are comparable.
 */

const DATAPOINTS_PER_SET = 250;

/** Descriptions are padded with this filler to reach realistic file sizes. */
const FILLER =
  'Measured by the device and collected by the driver at every polling cycle; ' +
  'see the vendor manual for the register map and the scaling applied to raw values. ';

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
      datapointType: index % 3 === 0 ? 'numeric' : index % 3 === 1 ? 'boolean' : 'string',
      alias: `Datapoint ${setIndex}.${index}`,
      description: pad(`Value ${index} of set ${setIndex}.`, 40),
    },
    addressConfig: {
      dataType: 'numeric',
      originType: 'modbus',
      originDataType: 'uint16',
      originAddress: `${register}`,
      originAccessType: 'read',
      receiveMode: 'polling',
      pollingGroup: `group_${index % 4}`,
    },
    alertConfig: {
      evaluations: [
        {
          expressions: [{ symbol: 'x', expression: `${id} > ${index % 100}` }],
          logic: 'x',
          severity: (index % 5) + 1,
          text: `Value of ${id} is above its threshold`,
          textHelp: pad(`Check the wiring of ${id} and the sensor it reads.`, 40),
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
      datapointSetType: 'modbus',
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
    originTypes: ['modbus'],
    datapointSets,
  };
}
