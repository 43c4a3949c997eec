import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

describe('checkUnknownKeys', () => {
  it('warns on an object-valued datapoint key such as unitConfig and suggests unitsConfig', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).unitConfig = { from: 'C', to: 'F' };
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_DATAPOINT_KEY');
    expect(problem).toMatchObject({
      path: '/datapointSets/0/datapoints/0/unitConfig',
      found: 'unitConfig',
      suggestion: 'unitsConfig',
    });
    expect(problem!.message).toContain("Did you mean 'unitsConfig'?");
    expect(problem!.message).toContain('silently ignored');
  });

  it('leaves non-object unknown datapoint keys and keys of #TIMEPOINT datapoints to the schema', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).unitConfig = 'C';
    objectAt(t, 'datapointSets', 0, 'datapoints', 4).unitConfig = { from: 'C' };
    expect(withCode(semanticWarnings(t), 'DT_WARN_QUIRK_DATAPOINT_KEY')).toEqual([]);
  });

  it('warns on the literal key "defaultValueConfig, addressConfig"', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0)['defaultValueConfig, addressConfig'] = {};
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_DEAD_BRANCH_KEY');
    expect(problem!.path).toBe('/datapointSets/0/datapoints/0/defaultValueConfig, addressConfig');
    expect(problem!.message).toContain('is one key, not two blocks');
  });

  it('warns on an unknown commonConfig key and suggests the intended one', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0, 'commonConfig').descripton = 'Name';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_COMMON_CONFIG_KEY');
    expect(problem).toMatchObject({
      path: '/datapointSets/0/datapoints/0/commonConfig/descripton',
      suggestion: 'description',
    });
    expect(problem!.message).toContain('fails to close commonConfig');
  });

  it.each([
    [
      'tableAddress',
      (t: ReturnType<typeof validTemplate>) => (objectAt(t, 'datapointSets', 1, 'tableAddress').rootTable = '1.3.6'),
      '/datapointSets/1/tableAddress/rootTable',
      'rootAddress',
    ],
    [
      'rangerFilter',
      (t: ReturnType<typeof validTemplate>) => (objectAt(t, 'rangerFilter').deviceId = '0x1'),
      '/rangerFilter/deviceId',
      'deviceID',
    ],
    [
      'an evaluation',
      (t: ReturnType<typeof validTemplate>) =>
        (objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'alertConfig', 'evaluations', 0).onstartup = true),
      '/datapointSets/0/datapoints/2/alertConfig/evaluations/0/onstartup',
      'onStartup',
    ],
    [
      'rowFilterConfig',
      (t: ReturnType<typeof validTemplate>) =>
        (objectAt(t, 'datapointSets', 1, 'datapoints', 1, 'rowFilterConfig').logik = 'up'),
      '/datapointSets/1/datapoints/1/rowFilterConfig/logik',
      'logic',
    ],
    [
      'routing',
      (t: ReturnType<typeof validTemplate>) => (objectAt(t, 'datapointSets', 0, 'routing').topik = 'x'),
      '/datapointSets/0/routing/topik',
      'topic',
    ],
    [
      'routing',
      (t: ReturnType<typeof validTemplate>) =>
        (objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'alertConfig', 'evaluations', 0, 'routing').servce = 'x'),
      '/datapointSets/0/datapoints/2/alertConfig/evaluations/0/routing/servce',
      'service',
    ],
    [
      'a widget commonConfig',
      (t: ReturnType<typeof validTemplate>) => (objectAt(t, 'representation', 0, 'commonConfig').widgetTitel = 'x'),
      '/representation/0/commonConfig/widgetTitel',
      'widgetTitle',
    ],
    [
      'a table specificConfig',
      (t: ReturnType<typeof validTemplate>) => (objectAt(t, 'representation', 1, 'specificConfig').pagesize = 4),
      '/representation/1/specificConfig/pagesize',
      'pageSize',
    ],
    [
      'a gauge format entry',
      (t: ReturnType<typeof validTemplate>) =>
        (objectAt(t, 'representation', 4, 'specificConfig', 'format', 0).colour = '#fff'),
      '/representation/4/specificConfig/format/0/colour',
      'color',
    ],
  ])('warns on an unknown key in %s', (subject, mutate, path, suggestion) => {
    const t = validTemplate();
    mutate(t);
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_QUIRK_OPEN_OBJECT_KEY');
    expect(problem).toMatchObject({ path, suggestion });
    expect(problem!.message).toContain(`is not a key of ${subject}`);
  });

  it('accepts the open objects of a clean template', () => {
    expect(withCode(semanticWarnings(validTemplate()), 'DT_WARN_QUIRK_OPEN_OBJECT_KEY')).toEqual([]);
  });
});
