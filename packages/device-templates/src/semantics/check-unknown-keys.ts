import { DATAPOINT_BLOCKS } from '../datapoint-blocks.js';
import { suggestKey } from '../schema/suggest-key.js';
import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { arrayAt, type JsonObject } from './template-walker.js';

const COMMON_CONFIG_KEYS = ['datapointId', 'datapointType', 'alias', 'description', 'syntaxInfo'];
const DEAD_BRANCH_KEY = 'defaultValueConfig, addressConfig';

// The keys of each object the schema leaves open.
const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const BLOCK_KEYS = keys(...DATAPOINT_BLOCKS);
const COMMON_CONFIG_SET = keys(...COMMON_CONFIG_KEYS);
const EVALUATION_KEYS = keys(
  'expressions',
  'logic',
  'severity',
  'text',
  'textHelp',
  'onStartup',
  'audited',
  'hidden',
  'broadcast',
  'facility',
  'routing',
);
const RANGER_FILTER_KEYS = keys('deviceID', 'vendorID', 'description');
const TABLE_ADDRESS_KEYS = keys('rootAddress', 'indexes');
const ROW_FILTER_KEYS = keys('expressions', 'logic');
const VALUE_MAP_ENTRY_KEYS = keys('key', 'value');
const ITEM_KEYS = keys('data', 'commonConfig', 'specificConfig');
const ROUTING_KEYS = keys('topic', 'service', 'serviceConfig');
const WIDGET_COMMON_KEYS = keys('firstRow', 'firstColumn', 'widgetWidth', 'widgetHeight', 'widgetType', 'widgetTitle');
const GAUGE_FORMAT_KEYS = keys('datapoint', 'color', 'units');
const SPECIFIC_CONFIG_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  table: keys('format', 'pageSize', 'filterable'),
  gauge: keys('format', 'maxValue', 'minValue', 'ranges'),
};

// Known mistakes too far from the intended key for an edit-distance guess. `rootTable` is what the
// driver API README's own example writes for `tableAddress.rootAddress`.
const KNOWN_MISTAKES: ReadonlyMap<string, string> = new Map([['rootTable', 'rootAddress']]);

// Fixed path tails, shared rather than allocated per object.
const RANGER_FILTER = ['rangerFilter'];
const TABLE_ADDRESS = ['tableAddress'];
const ROW_FILTER = ['rowFilterConfig'];
const ROUTING = ['routing'];

/**
 * Flags unknown keys where the published schema does not close the object, so a typo passes
 * silently: datapoint-level object-valued keys (`unitConfig`), `commonConfig` (its
 * `additionalProperties: false` sits inside `properties`), and the open objects `rangerFilter`,
 * `tableAddress`, `routing` (of a set and of an evaluation), `rowFilterConfig`, evaluations,
 * `valueMapConfig.map[]` entries, representation items and their `commonConfig`, table and gauge
 * `specificConfig` and gauge `format[]` entries. Also flags the literal key
 * `"defaultValueConfig, addressConfig"`, which satisfies a dead branch of the schema's anyOf.
 * Unknown keys in closed objects are schema errors and are not repeated here.
 */
export const checkUnknownKeys: SemanticCheck = (model, reporter) => {
  const rangerFilter = model.root['rangerFilter'];
  if (isObject(rangerFilter))
    checkOpenObject(rangerFilter, [], RANGER_FILTER, RANGER_FILTER_KEYS, 'rangerFilter', reporter);
  for (const set of model.sets) {
    const tableAddress = set.value['tableAddress'];
    if (isObject(tableAddress))
      checkOpenObject(tableAddress, set.path, TABLE_ADDRESS, TABLE_ADDRESS_KEYS, 'tableAddress', reporter);
    const routing = set.value['routing'];
    if (isObject(routing)) checkOpenObject(routing, set.path, ROUTING, ROUTING_KEYS, 'routing', reporter);
  }
  for (const datapoint of model.datapoints) {
    const value = datapoint.value;
    // A #TIMEPOINT datapoint is closed by the schema: its unknown keys are errors already.
    if (datapoint.datapointType !== '#TIMEPOINT') checkDatapointKeys(value, datapoint.path, reporter);
    const common = value['commonConfig'];
    if (isObject(common)) checkCommonConfig(common, datapoint.path, reporter);
    const rowFilter = value['rowFilterConfig'];
    if (isObject(rowFilter))
      checkOpenObject(rowFilter, datapoint.path, ROW_FILTER, ROW_FILTER_KEYS, 'rowFilterConfig', reporter);
    const alert = value['alertConfig'];
    if (isObject(alert)) {
      const evaluations = arrayAt(alert, 'evaluations');
      for (let i = 0; i < evaluations.length; i++) {
        const evaluation: unknown = evaluations[i];
        if (!isObject(evaluation)) continue;
        const place = ['alertConfig', 'evaluations', i];
        checkOpenObject(evaluation, datapoint.path, place, EVALUATION_KEYS, 'an evaluation', reporter);
        const routing = evaluation['routing'];
        if (isObject(routing))
          checkOpenObject(routing, datapoint.path, [...place, 'routing'], ROUTING_KEYS, 'routing', reporter);
      }
    }
    const valueMap = value['valueMapConfig'];
    if (isObject(valueMap)) {
      const map = arrayAt(valueMap, 'map');
      for (let i = 0; i < map.length; i++) {
        const entry: unknown = map[i];
        if (isObject(entry))
          checkOpenObject(
            entry,
            datapoint.path,
            ['valueMapConfig', 'map', i],
            VALUE_MAP_ENTRY_KEYS,
            'a valueMapConfig.map entry',
            reporter,
          );
      }
    }
  }
  checkRepresentationKeys(arrayAt(model.root, 'representation'), reporter);
};

function checkDatapointKeys(datapoint: JsonObject, path: DocumentPath, reporter: SemanticReporter): void {
  for (const key of Object.keys(datapoint)) {
    if (BLOCK_KEYS.has(key) || !isObject(datapoint[key])) continue;
    if (key === DEAD_BRANCH_KEY) {
      reporter.report('DT_WARN_QUIRK_DEAD_BRANCH_KEY', [...path, key], {
        at: 'key',
        message:
          `"${DEAD_BRANCH_KEY}" is one key, not two blocks: it matches a leftover branch of the published schema, ` +
          'so the datapoint passes without its real blocks being required; write defaultValueConfig and ' +
          'addressConfig as separate keys.',
        found: key,
        suggestion: 'split into defaultValueConfig and addressConfig',
      });
      continue;
    }
    const suggestion = suggestKey(key, DATAPOINT_BLOCKS);
    reporter.report('DT_WARN_QUIRK_DATAPOINT_KEY', [...path, key], {
      at: 'key',
      message:
        `'${key}' is not a datapoint configuration block; the schema accepts any object-valued key here, so this ` +
        `block ` +
        `is silently ignored${suggestion !== undefined ? `. Did you mean '${suggestion}'?` : '.'}`,
      found: key,
      allowed: DATAPOINT_BLOCKS.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }
}

function checkCommonConfig(common: JsonObject, datapointPath: DocumentPath, reporter: SemanticReporter): void {
  for (const key of Object.keys(common)) {
    // `additionalProperties` is declared (as `false`) by the schema bug, so the schema rejects it itself.
    if (COMMON_CONFIG_SET.has(key) || key === 'additionalProperties') continue;
    const suggestion = suggestKey(key, COMMON_CONFIG_KEYS);
    reporter.report('DT_WARN_QUIRK_COMMON_CONFIG_KEY', [...datapointPath, 'commonConfig', key], {
      at: 'key',
      message:
        `'${key}' is not a commonConfig key; the published schema fails to close commonConfig, so it is accepted ` +
        `and ignored` +
        `${suggestion !== undefined ? `. Did you mean '${suggestion}'?` : '.'}`,
      found: key,
      allowed: COMMON_CONFIG_KEYS.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }
}

function checkRepresentationKeys(items: readonly unknown[], reporter: SemanticReporter): void {
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item)) continue;
    const path: DocumentPath = ['representation', i];
    checkOpenObject(item, path, [], ITEM_KEYS, 'a representation item', reporter);
    const common = item['commonConfig'];
    if (isObject(common))
      checkOpenObject(common, path, ['commonConfig'], WIDGET_COMMON_KEYS, 'a widget commonConfig', reporter);
    const widgetType = isObject(common) ? common['widgetType'] : undefined;
    const specific = item['specificConfig'];
    if (typeof widgetType !== 'string' || !isObject(specific) || !Object.hasOwn(SPECIFIC_CONFIG_KEYS, widgetType))
      continue;
    checkOpenObject(
      specific,
      path,
      ['specificConfig'],
      SPECIFIC_CONFIG_KEYS[widgetType]!,
      `a ${widgetType} specificConfig`,
      reporter,
    );
    if (widgetType !== 'gauge') continue;
    const format = arrayAt(specific, 'format');
    for (let f = 0; f < format.length; f++) {
      const entry: unknown = format[f];
      if (isObject(entry))
        checkOpenObject(
          entry,
          path,
          ['specificConfig', 'format', f],
          GAUGE_FORMAT_KEYS,
          'a gauge format entry',
          reporter,
        );
    }
  }
}

// The path is passed in two parts so that clean objects cost no path copy.
function checkOpenObject(
  object: JsonObject,
  base: DocumentPath,
  tail: readonly (string | number)[],
  known: ReadonlySet<string>,
  subject: string,
  reporter: SemanticReporter,
): void {
  for (const key of Object.keys(object)) {
    if (known.has(key)) continue;
    const knownKeys = [...known];
    const mistake = KNOWN_MISTAKES.get(key);
    const suggestion = mistake !== undefined && known.has(mistake) ? mistake : suggestKey(key, knownKeys);
    reporter.report('DT_WARN_QUIRK_OPEN_OBJECT_KEY', [...base, ...tail, key], {
      at: 'key',
      message:
        `'${key}' is not a key of ${subject}; the schema leaves this object open, so the key is accepted and ignored` +
        `${suggestion !== undefined ? `. Did you mean '${suggestion}'?` : `. Known keys: ${knownKeys.join(', ')}.`}`,
      found: key,
      allowed: knownKeys.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }
}
