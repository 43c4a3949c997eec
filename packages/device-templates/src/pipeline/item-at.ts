/**
 * Element `index` of a list the pipeline built together with the index: a plan's datapoints, a
 * row's entries and a set's dependents share the datapoint indexes of the compiled plan. Throws a
 * RangeError for an index the list does not have, which only a bug in the plan can produce.
 */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new RangeError(`index ${index} is outside a list of ${list.length}`);
  return item;
}
