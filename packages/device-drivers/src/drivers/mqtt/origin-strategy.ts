/**
 * `originStrategy`: which device (origin) a message belongs to. Every strategy finds a text, and
 * the optional `expression` (RE2) then cuts the origin out of it (group `origin`, else the first
 * group, else the whole match; no match: the message belongs to no device).
 *
 * - `topic`: the topic name. Without `expression`, the level the topic filter's first `+`
 *   matched, or, for a regular-expression topic name, what that expression captured.
 * - `property`: the value at `property` in the JSON payload (a dot path, or a JSONPath when it
 *   starts with `$`).
 * - `clientId`, `address`: a subscriber cannot see the publisher's client id or IP address, so
 *   the publisher states them: the MQTT 5 user property of that name, else the payload's
 *   top-level field of that name.
 * - `origin`: the user property or payload field `origin`; a message with neither belongs to
 *   every device subscribed to the topic (give each device its own topic then).
 */
import { isObject } from '@triad/common';
import { DriverError } from '../../driver-error.js';
import { dotPathReader, valueAtJsonPath } from './message-path.js';
import type { MqttMessage } from './mqtt-message.js';
import { Re2Pattern } from './re2-pattern.js';
import { wildcardLevels } from './topic-filter.js';

/** `originStrategy.strategyId` values. */
export const ORIGIN_STRATEGIES = ['topic', 'property', 'address', 'clientId', 'origin'] as const;
/** One of `ORIGIN_STRATEGIES`. */
export type OriginStrategyId = (typeof ORIGIN_STRATEGIES)[number];

/** What `OriginStrategy.originOf` answers for a message that names no origin at all (strategy `origin`). */
export const EVERY_DEVICE = Symbol('every device');

/** A compiled `originStrategy`. */
export interface OriginStrategy {
  readonly strategyId: OriginStrategyId;
  /** Identifies equal strategies (devices of one template share their routing work). */
  readonly key: string;
  /** True when the answer depends on the topic alone (it is then cached per topic). */
  readonly topicOnly: boolean;
  /** The message's origin; undefined when it belongs to no device. */
  originOf(message: MqttMessage): string | typeof EVERY_DEVICE | undefined;
}

/**
 * Compiles `originStrategy` of the topic entry at `path`. `topicName` is the entry's topic
 * filter, or its regular expression (`topicPattern`). Throws a `configuration` DriverError.
 */
export function compileOriginStrategy(
  raw: unknown,
  path: string,
  topicName: string,
  topicPattern: Re2Pattern | undefined,
): OriginStrategy {
  if (!isObject(raw)) throw new DriverError('configuration', `${path} must be an object with a strategyId`);
  const strategyId = raw['strategyId'];
  if (typeof strategyId !== 'string' || !(ORIGIN_STRATEGIES as readonly string[]).includes(strategyId))
    throw new DriverError(
      'configuration',
      `${path}.strategyId must be one of ${ORIGIN_STRATEGIES.join(', ')}; it is ${JSON.stringify(strategyId)}`,
    );
  const id = strategyId as OriginStrategyId;
  const expressionText = optionalString(raw, 'expression', path);
  const property = optionalString(raw, 'property', path);
  let expression: Re2Pattern | undefined;
  if (expressionText !== undefined) {
    const compiled = Re2Pattern.compile(expressionText);
    if (typeof compiled === 'string')
      throw new DriverError('configuration', `${path}.expression is not a regular expression RE2 runs: ${compiled}`);
    expression = compiled;
  }
  const cut = (text: string | undefined): string | undefined =>
    text === undefined || expression === undefined ? text : expression.capture(text);
  const key = JSON.stringify([id, property ?? null, expressionText ?? null, topicName]);
  const strategy = (originOf: OriginStrategy['originOf'], topicOnly = false): OriginStrategy => ({
    strategyId: id,
    key,
    topicOnly,
    originOf,
  });

  switch (id) {
    case 'topic': {
      if (expression !== undefined) return strategy((message) => expression.capture(message.topic), true);
      if (topicPattern !== undefined) return strategy((message) => topicPattern.capture(message.topic), true);
      if (!topicName.split('/').includes('+'))
        throw new DriverError(
          'configuration',
          `${path}.expression is required: the topic filter ${JSON.stringify(topicName)} has no "+" level ` +
            'to take the origin from',
        );
      return strategy((message) => wildcardLevels(topicName, message.topic)[0], true);
    }
    case 'property': {
      if (property === undefined || property === '')
        throw new DriverError('configuration', `${path}.property is required with strategyId "property"`);
      const read = property.startsWith('$')
        ? (payload: unknown) => valueAtJsonPath(payload, property)
        : dotPathReader(property);
      return strategy((message) => cut(text(read(message.payload))));
    }
    case 'address':
    case 'clientId':
      return strategy((message) => cut(text(message.userProperty(id) ?? message.payloadField(id))));
    case 'origin':
      return strategy((message) => {
        const named = text(message.userProperty('origin') ?? message.payloadField('origin'));
        return named === undefined ? EVERY_DEVICE : cut(named);
      });
  }
}

/** Numbers and strings name origins; anything else (objects, null, arrays) does not. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}

function optionalString(raw: Readonly<Record<string, unknown>>, key: string, path: string): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new DriverError('configuration', `${path}.${key} must be a string`);
  return value;
}
