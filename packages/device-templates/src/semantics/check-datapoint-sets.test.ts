import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

describe('checkDatapointSets', () => {
  it('warns on a datapointId used twice in one set and names the first place', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'commonConfig').datapointId = 'sysName';
    const problems = withCode(semanticWarnings(t), 'DT_WARN_SEM_DATAPOINT_ID_DUPLICATE');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      path: '/datapointSets/0/datapoints/2/commonConfig/datapointId',
      found: 'sysName',
    });
    expect(problems[0]!.message).toContain(
      'already used in this set at /datapointSets/0/datapoints/0/commonConfig/datapointId',
    );
  });

  it('accepts the same datapointId in two different sets', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 2, 'datapoints', 0, 'commonConfig').datapointId = 'sysName';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_DATAPOINT_ID_DUPLICATE')).toEqual([]);
  });

  it('warns on a table index that names no datapoint of the set', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 1, 'tableAddress').indexes = ['ifIndex', 'ifIdx'];
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_TABLE_INDEX_UNKNOWN');
    expect(problem).toMatchObject({
      path: '/datapointSets/1/tableAddress/indexes/1',
      found: 'ifIdx',
      suggestion: 'ifIndex',
    });
    expect(problem!.message).toContain("names no datapoint of the set 'ifTable'");
  });

  it.each([
    ['missing', undefined, '/datapointSets/1/tableAddress'],
    ['blank', '  ', '/datapointSets/1/tableAddress/rootAddress'],
  ])('warns on a %s rootAddress in a table set', (_name, rootAddress, path) => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 1, 'tableAddress').rootAddress = rootAddress;
    if (rootAddress === undefined) delete objectAt(t, 'datapointSets', 1, 'tableAddress').rootAddress;
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY');
    expect(problem!.path).toBe(path);
    expect(problem!.message).toContain("tableDynamic set 'ifTable'");
  });

  it('does not ask a map set for a rootAddress', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0).tableAddress = {};
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY')).toEqual([]);
  });

  it('warns on rowFilterConfig in a map set', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 0).rowFilterConfig = {
      logic: 'a',
      expressions: [{ symbol: 'a', expression: 'true' }],
    };
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_ROW_FILTER_NOT_TABLE');
    expect(problem).toMatchObject({ path: '/datapointSets/0/datapoints/0/rowFilterConfig', found: 'map' });
    expect(problem!.message).toContain('filters the rows of a table');
  });

  it('accepts rowFilterConfig in a table set', () => {
    expect(withCode(semanticWarnings(validTemplate()), 'DT_WARN_SEM_ROW_FILTER_NOT_TABLE')).toEqual([]);
  });
});
