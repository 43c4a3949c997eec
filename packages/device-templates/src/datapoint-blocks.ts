/** The configuration blocks a datapoint may carry (spec 1, "Datapoint"); other keys are unknown. */
export const DATAPOINT_BLOCKS: readonly string[] = Object.freeze([
  'commonConfig',
  'addressConfig',
  'alertConfig',
  'calcConfig',
  'convConfig',
  'defaultValueConfig',
  'rowFilterConfig',
  'unitsConfig',
  'valueMapConfig',
]);
