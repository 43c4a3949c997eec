import type { DocumentPath } from '../problem.js';
import type { SemanticCheck } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { type DatapointEntry } from './template-walker.js';
import { suggestName } from './suggest-name.js';

/**
 * Checks each datapoint set on its own: datapointIds are unique within the set, a table's
 * `tableAddress.indexes` name datapoints of the set and its `rootAddress` is not empty, and
 * `rowFilterConfig` appears only in table sets.
 */
export const checkDatapointSets: SemanticCheck = (model, reporter) => {
  for (const set of model.sets) {
    const firstById = new Map<string, DatapointEntry>();
    for (const datapoint of set.datapoints) {
      if (datapoint.id !== undefined) {
        const first = firstById.get(datapoint.id);
        if (first === undefined) {
          firstById.set(datapoint.id, datapoint);
        } else {
          reporter.report('DT_WARN_SEM_DATAPOINT_ID_DUPLICATE', [...datapoint.path, 'commonConfig', 'datapointId'], {
            message:
              `The datapointId '${datapoint.id}' is already used in this set at ` +
              `${reporter.describePlace([...first.path, 'commonConfig', 'datapointId'])}; ` +
              'values of the two datapoints would overwrite each other, so rename one of them.',
            found: datapoint.id,
          });
        }
      }
      // Only a `map` set: any other non-table type is a schema error.
      if (set.type === 'map' && Object.hasOwn(datapoint.value, 'rowFilterConfig')) {
        reporter.report('DT_WARN_SEM_ROW_FILTER_NOT_TABLE', [...datapoint.path, 'rowFilterConfig'], {
          at: 'key',
          message:
            `rowFilterConfig filters the rows of a table, but this datapoint belongs to the map set` +
            `${set.id !== undefined ? ` '${set.id}'` : ''}; remove it or make the set tableStatic or tableDynamic.`,
          found: set.type,
          allowed: 'tableStatic, tableDynamic',
        });
      }
    }
    if (!set.isTable) continue;
    const tableAddress = set.value['tableAddress'];
    // A missing or non-object tableAddress is a schema error.
    if (!isObject(tableAddress)) continue;
    const tablePath: DocumentPath = [...set.path, 'tableAddress'];
    const rootAddress = tableAddress['rootAddress'];
    if (rootAddress === undefined || (typeof rootAddress === 'string' && rootAddress.trim() === '')) {
      reporter.report(
        'DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY',
        rootAddress === undefined ? tablePath : [...tablePath, 'rootAddress'],
        {
          message:
            `The ${set.type ?? 'table'} set${set.id !== undefined ? ` '${set.id}'` : ''} has ` +
            `${rootAddress === undefined ? 'no tableAddress.rootAddress' : 'an empty tableAddress.rootAddress'}; ` +
            "the driver needs the table's address (e.g. the table OID for SNMP).",
          ...(rootAddress !== undefined ? { found: rootAddress } : {}),
        },
      );
    }
    const indexes = tableAddress['indexes'];
    if (!Array.isArray(indexes)) continue;
    const ids = [...firstById.keys()];
    for (let i = 0; i < indexes.length; i++) {
      const index: unknown = indexes[i];
      if (typeof index !== 'string' || firstById.has(index)) continue;
      const suggestion = suggestName(index, ids);
      reporter.report('DT_WARN_SEM_TABLE_INDEX_UNKNOWN', [...tablePath, 'indexes', i], {
        message:
          `The table index '${index}' names no datapoint of the set${set.id !== undefined ? ` '${set.id}'` : ''}` +
          (suggestion !== undefined
            ? `; did you mean '${suggestion}'?`
            : '; an index must be the datapointId of a column of the table.'),
        found: index,
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    }
  }
};
