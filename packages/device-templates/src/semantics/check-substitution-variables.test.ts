import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

describe('checkSubstitutionVariables', () => {
  it('warns on an unknown variable in origin and suggests the closest known one', () => {
    const t = validTemplate();
    t.origin = '/{ICMP_IpAddress}/';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_UNKNOWN');
    expect(problem).toMatchObject({ path: '/origin', suggestion: '/{ICMP_IPAddress}/' });
    expect(problem!.message).toContain('is not a discovery variable');
  });

  it('accepts a variable only a device fills, and warns on one that nothing can fill', () => {
    const t = validTemplate();
    objectAt(t, 'originTypes', 0, 'basicConfig').address = '/{SNMP_Address}/';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_UNKNOWN')).toEqual([]);
    objectAt(t, 'originTypes', 0, 'basicConfig').address = '/{SNMP Address}/';
    const problems = withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_UNKNOWN');
    expect(problems.map((p) => p.path)).toEqual(['/originTypes/0/basicConfig/address']);
    expect(problems[0]!.message).toContain('/{SNMP Address}/ is never replaced');
  });

  it('accepts the four discovery variables and a literal origin', () => {
    const t = validTemplate();
    t.origin = 'plc-17.line_2';
    objectAt(t, 'originTypes', 0).extra = {
      a: '/{DCP_MACAddress}/',
      b: ['/{DCP_NameOfStation}/', '/{DCP_IPAddress}/'],
    };
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_UNKNOWN')).toEqual([]);
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_MALFORMED')).toEqual([]);
  });

  it.each([
    ['{ICMP_IPAddress}', '/{ICMP_IPAddress}/'],
    ['/{DCP_IPAddress}', '/{DCP_IPAddress}/'],
    ['DCP_IPAddress', '/{DCP_IPAddress}/'],
  ])('warns that %s is taken literally', (written, intended) => {
    const t = validTemplate();
    objectAt(t, 'originTypes', 0, 'basicConfig').address = written;
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_MALFORMED');
    expect(problem).toMatchObject({ path: '/originTypes/0/basicConfig/address', suggestion: intended });
    expect(problem!.message).toContain('taken literally');
  });

  it('does not mistake a regex quantifier for a placeholder', () => {
    const t = validTemplate();
    objectAt(t, 'originTypes', 1, 'topics', 0, 'originStrategy').expression = '^plant/([a-z]{2,4})/';
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_VARIABLE_MALFORMED')).toEqual([]);
  });
});
