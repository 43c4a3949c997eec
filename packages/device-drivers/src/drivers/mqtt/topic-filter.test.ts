import { describe, expect, it } from 'vitest';
import { topicFilterProblem, topicMatches, wildcardLevels } from './topic-filter.js';

describe('MQTT topic filters', () => {
  it.each([
    ['plant/+/telemetry', 'plant/line1/telemetry', true],
    ['plant/+/telemetry', 'plant/line1/x/telemetry', false],
    ['plant/+/telemetry', 'plant//telemetry', true],
    ['plant/#', 'plant', true],
    ['plant/#', 'plant/a/b/c', true],
    ['plant/#', 'plants/a', false],
    ['#', 'a/b', true],
    ['#', '$SYS/broker/uptime', false],
    ['+/uptime', '$SYS/uptime', false],
    ['$SYS/#', '$SYS/broker/uptime', true],
    ['a/b', 'a/b', true],
    ['a/b', 'a/b/c', false],
    ['a/b/c', 'a/b', false],
    ['$share/group/a/+', 'a/x', true],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });

  it.each([
    ['a/#/b', '"#" must be the whole last level'],
    ['a/b#', '"#" must be the whole last level'],
    ['a/x+/b', '"+" must be a whole level'],
    ['', 'must not be empty'],
  ])('refuses %j', (filter, problem) => {
    expect(topicFilterProblem(filter)).toContain(problem);
  });

  it('accepts filters with wildcards in their places', () => {
    expect(['a/+/b', '#', '+', 'a/b/#', '$share/g/a/#'].map(topicFilterProblem)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names the levels the + wildcards matched', () => {
    expect(wildcardLevels('plant/+/+/telemetry', 'plant/line1/sensor-4/telemetry')).toEqual(['line1', 'sensor-4']);
  });
});
