import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

describe('checkRouting', () => {
  it('warns on an evaluation with routing and broadcast false', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0, 'datapoints', 2, 'alertConfig', 'evaluations', 1).broadcast = false;
    const [problem, ...rest] = withCode(semanticWarnings(t), 'DT_WARN_SEM_ROUTING_WITHOUT_BROADCAST');
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      path: '/datapointSets/0/datapoints/2/alertConfig/evaluations/1/routing',
      found: false,
    });
    expect(problem!.message).toContain('severity 801 (critical) has routing but broadcast is false');
  });

  it('warns on a set with routing and no broadcast', () => {
    const t = validTemplate();
    delete objectAt(t, 'datapointSets', 0).broadcast;
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_ROUTING_WITHOUT_BROADCAST');
    expect(problem!.path).toBe('/datapointSets/0/routing');
    expect(problem!.message).toContain("The datapoint set 'deviceInfo' has routing but broadcast is not set");
  });

  it('accepts routing with broadcast true, and broadcast false without routing', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 1).broadcast = false;
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_ROUTING_WITHOUT_BROADCAST')).toEqual([]);
  });
});
