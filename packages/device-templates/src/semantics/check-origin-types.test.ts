import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { listAt, objectAt } from '../test-support/fixture-paths.js';

const address = (t: ReturnType<typeof validTemplate>, s: number, d: number) =>
  objectAt(t, 'datapointSets', s, 'datapoints', d, 'addressConfig');

describe('checkOriginTypes', () => {
  it('warns on an addressConfig.originType missing from originTypes and suggests the close one', () => {
    const t = validTemplate();
    address(t, 0, 0).originType = 'netin-ds-drv-snpm';
    const [problem, ...rest] = withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED');
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      path: '/datapointSets/0/datapoints/0/addressConfig/originType',
      found: 'netin-ds-drv-snpm',
      suggestion: 'netin-ds-drv-snmp',
    });
    expect(problem!.message).toContain("'netin-ds-drv-snpm', used by this datapoint, is not declared in originTypes");
  });

  it('reports a driver missing from originTypes once, at its first use, with the number of other uses', () => {
    const t = validTemplate();
    address(t, 1, 0).originType = 'netin-ds-drv-s7';
    address(t, 1, 1).originType = 'netin-ds-drv-s7';
    address(t, 0, 1).originType = 'netin-ds-drv-s7';
    const problems = withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toBe('/datapointSets/0/datapoints/1/addressConfig/originType');
    expect(problems[0]!.message).toContain('used by this datapoint and 2 more');
    expect(problems[0]!.message).toContain("declared drivers: 'netin-ds-drv-snmp' and 'netin-ds-drv-mqtt'");
  });

  it('does not cross-check drivers when an originTypes entry is malformed (a schema error)', () => {
    const t = validTemplate();
    listAt(t, 'originTypes').push('netin-ds-drv-s7');
    address(t, 0, 0).originType = 'netin-ds-drv-s7';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED')).toEqual([]);
  });

  it('accepts datapoints whose drivers are all declared', () => {
    expect(withCode(semanticWarnings(validTemplate()), 'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED')).toEqual([]);
  });

  it('warns once, at the root, when originTypes is absent, naming every driver used', () => {
    const t = validTemplate();
    delete t.originTypes;
    const problems = semanticWarnings(t);
    const missing = withCode(problems, 'DT_WARN_SEM_ORIGIN_TYPES_MISSING');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.path).toBe('');
    expect(missing[0]!.message).toContain("'netin-ds-drv-snmp' and 'netin-ds-drv-mqtt'");
    expect(withCode(problems, 'DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED')).toEqual([]);
  });

  it('says nothing about missing originTypes when no datapoint has an addressConfig', () => {
    const t = validTemplate();
    delete t.originTypes;
    t.datapointSets = [
      { ...objectAt(t, 'datapointSets', 0), datapoints: [objectAt(t, 'datapointSets', 0, 'datapoints', 3)] },
    ];
    t.representation = undefined;
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPES_MISSING')).toEqual([]);
  });

  it('warns on a declared driver that no datapoint uses', () => {
    const t = validTemplate();
    listAt(t, 'originTypes').push({
      originType: 'netin-ds-drv-icmp',
      address: '/{ICMP_IPAddress}/',
      count: 4,
      timeout: 1000,
    });
    const unused = withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_UNUSED');
    expect(unused).toHaveLength(1);
    expect(unused[0]).toMatchObject({ path: '/originTypes/2/originType', found: 'netin-ds-drv-icmp' });
    expect(unused[0]!.message).toContain('no addressConfig.originType uses it');
  });

  it('warns on a driver declared twice with different settings and names the first entry', () => {
    const t = validTemplate();
    listAt(t, 'originTypes').push({
      ...objectAt(t, 'originTypes', 0),
      basicConfig: { ...objectAt(t, 'originTypes', 0, 'basicConfig'), port: 1161 },
    });
    const duplicates = withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_DUPLICATE');
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0]!.path).toBe('/originTypes/2/originType');
    expect(duplicates[0]!.message).toContain('/originTypes/0/originType');
  });

  it('leaves exact duplicate entries to the schema (uniqueItems)', () => {
    const t = validTemplate();
    listAt(t, 'originTypes').push(structuredClone(objectAt(t, 'originTypes', 0)));
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_ORIGIN_TYPE_DUPLICATE')).toEqual([]);
  });
});
