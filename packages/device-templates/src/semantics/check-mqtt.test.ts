import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';
import { objectAt } from '../test-support/fixture-paths.js';

const topic = (t: ReturnType<typeof validTemplate>) => objectAt(t, 'originTypes', 1, 'topics', 0);

describe('checkMqtt', () => {
  it('warns on a topic that fills a set the template does not have', () => {
    const t = validTemplate();
    topic(t).datapointSet = 'mqttStatu';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_SET_UNKNOWN');
    expect(problem).toMatchObject({ path: '/originTypes/1/topics/0/datapointSet', suggestion: 'mqttStatus' });
    expect(problem!.message).toContain("fills the datapointSet 'mqttStatu'");
  });

  it('ignores topics of drivers that are not MQTT', () => {
    const t = validTemplate();
    objectAt(t, 'originTypes', 0).topics = [{ datapointSet: 'nothing', operationMode: 'weird' }];
    const problems = semanticWarnings(t);
    expect(withCode(problems, 'DT_WARN_SEM_MQTT_SET_UNKNOWN')).toEqual([]);
    expect(withCode(problems, 'DT_WARN_SEM_MQTT_OPERATION_MODE_UNKNOWN')).toEqual([]);
  });

  it('warns on an unknown origin strategy and suggests the close one', () => {
    const t = validTemplate();
    objectAt(topic(t), 'originStrategy').strategyId = 'clientID';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_STRATEGY_UNKNOWN');
    expect(problem).toMatchObject({
      path: '/originTypes/1/topics/0/originStrategy/strategyId',
      suggestion: 'clientId',
    });
    expect(problem!.message).toContain("'topic', 'property', 'address', 'clientId' or 'origin'");
  });

  it('warns on a property strategy without a property', () => {
    const t = validTemplate();
    topic(t).originStrategy = { strategyId: 'property' };
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE');
    expect(problem!.path).toBe('/originTypes/1/topics/0/originStrategy/strategyId');
    expect(problem!.message).toContain("'property' is missing");
  });

  it('accepts the topic strategy without expression when a + level or a regular expression gives the origin', () => {
    const t = validTemplate();
    for (const topicName of ['plant/+/telemetry', '^plant/(?P<origin>[a-z0-9-]+)/telemetry$']) {
      Object.assign(topic(t), { topicName, originStrategy: { strategyId: 'topic' } });
      expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE')).toEqual([]);
    }
  });

  it('warns on the topic strategy without expression when the topic filter has no + level', () => {
    const t = validTemplate();
    Object.assign(topic(t), { topicName: 'plant/line1/telemetry', originStrategy: { strategyId: 'topic' } });
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE');
    expect(problem!.message).toContain(`"plant/line1/telemetry" has no '+' level`);
  });

  it('accepts strategies that need no extra key', () => {
    const t = validTemplate();
    topic(t).originStrategy = { strategyId: 'clientId' };
    expect(withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE')).toEqual([]);
  });

  it('warns on an unknown operation mode', () => {
    const t = validTemplate();
    topic(t).operationMode = 'extrakt';
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_MQTT_OPERATION_MODE_UNKNOWN');
    expect(problem).toMatchObject({ path: '/originTypes/1/topics/0/operationMode', suggestion: 'extract' });
    expect(problem!.message).toContain("'transform'");
  });
});
