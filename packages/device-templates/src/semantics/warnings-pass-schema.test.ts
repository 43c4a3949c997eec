// Every warning of this module is about input the schema accepts: this pins that each trigger
// document below is schema-valid (so no warning repeats a schema error) and gets its warning.
import { describe, expect, it } from 'vitest';
import { rawSchemaErrors } from '../schema/template-validator.js';
import type { SemanticProblemCode } from './semantic-problems.js';
import { semanticWarnings, validTemplate, type Fixture } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

const dp = (t: Fixture, s: number, d: number) => objectAt(t, 'datapointSets', s, 'datapoints', d);

const triggers: [SemanticProblemCode, (t: Fixture) => void][] = [
  ['DT_WARN_QUIRK_DATAPOINT_KEY', (t) => (dp(t, 0, 0).unitConfig = { from: 'C', to: 'F' })],
  ['DT_WARN_QUIRK_COMMON_CONFIG_KEY', (t) => (objectAt(dp(t, 0, 0), 'commonConfig').descripton = 'x')],
  ['DT_WARN_QUIRK_OPEN_OBJECT_KEY', (t) => (objectAt(t, 'datapointSets', 1, 'tableAddress').rootTable = '1.3.6')],
  ['DT_WARN_QUIRK_DEAD_BRANCH_KEY', (t) => (dp(t, 0, 0)['defaultValueConfig, addressConfig'] = {})],
  ['DT_WARN_QUIRK_VERSION_NOT_SEMVER', (t) => (t.templateVersion = 'foo 1.2.3')],
  [
    'DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS',
    (t) => (objectAt(dp(t, 0, 2), 'alertConfig', 'evaluations', 0).expressions = []),
  ],
  ['DT_WARN_QUIRK_UNITS_TO_AND_TO_BEST', (t) => (dp(t, 0, 2).unitsConfig = { from: 'C', to: 'F', toBest: true })],
  ['DT_WARN_QUIRK_UNITS_NO_TARGET', (t) => (dp(t, 0, 2).unitsConfig = { from: 'C', toBest: false })],
  ['DT_WARN_QUIRK_UNITS_EXCLUDE_IGNORED', (t) => (dp(t, 0, 2).unitsConfig = { from: 'C', to: 'F', exclude: ['K'] })],
  ['DT_WARN_SEM_UNIT_UNKNOWN', (t) => (dp(t, 0, 2).unitsConfig = { from: 'watts', to: 'kilowatts' })],
  ['DT_WARN_SEM_DATAPOINT_ID_DUPLICATE', (t) => (objectAt(dp(t, 0, 2), 'commonConfig').datapointId = 'sysName')],
  ['DT_WARN_SEM_TABLE_INDEX_UNKNOWN', (t) => (objectAt(t, 'datapointSets', 1, 'tableAddress').indexes = ['ifIdx'])],
  ['DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY', (t) => (objectAt(t, 'datapointSets', 1).tableAddress = {})],
  [
    'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED',
    (t) => (objectAt(dp(t, 0, 0), 'addressConfig').originType = 'netin-ds-drv-s7'),
  ],
  ['DT_WARN_SEM_ORIGIN_TYPE_DUPLICATE', (t) => listAt(t, 'originTypes').push({ originType: 'netin-ds-drv-snmp' })],
  ['DT_WARN_SEM_WIDGET_OUTSIDE_GRID', (t) => (objectAt(t, 'representation', 0, 'commonConfig').firstColumn = 7)],
  ['DT_WARN_SEM_REPRESENTATION_SET_UNKNOWN', (t) => (objectAt(t, 'representation', 0).data = 'device[nothing]')],
  ['DT_WARN_SEM_RANGER_REGEX_UNSUPPORTED', (t) => (objectAt(t, 'rangerFilter').description = '(?<!x)SCALANCE')],
];

describe('semantic warnings and the schema', () => {
  it('starts from a schema-valid template', () => {
    expect(rawSchemaErrors(validTemplate())).toEqual([]);
  });

  it.each(triggers)('%s fires on a document the schema accepts', (code, mutate) => {
    const t = validTemplate();
    mutate(t);
    expect(rawSchemaErrors(t)).toEqual([]);
    expect(semanticWarnings(t).map((p) => p.code)).toContain(code);
  });
});
