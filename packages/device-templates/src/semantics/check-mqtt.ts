import type { DocumentPath } from '../problem.js';
import { suggestKey } from '../schema/suggest-key.js';
import { listOf, type SemanticCheck, type SemanticReporter } from './semantic-reporter.js';
import { suggestName } from './suggest-name.js';
import { isObject } from '@triad/common';
import { arrayAt, stringOrUndefined } from './template-walker.js';

/** How the MQTT driver finds the origin of a message. */
export const MQTT_ORIGIN_STRATEGIES: readonly string[] = Object.freeze([
  'topic',
  'property',
  'address',
  'clientId',
  'origin',
]);
/** How the MQTT driver reads datapoint addresses: dot paths (`extract`) or JSONPath (`transform`). */
export const MQTT_OPERATION_MODES: readonly string[] = Object.freeze(['extract', 'transform']);

// The key each strategy works from: `topic` applies a regex in `expression` to the topic name
// (needed only when the topic name gives no origin itself, below), `property` reads the payload
// at `property`.
const STRATEGY_NEEDS: Readonly<Record<string, string>> = { topic: 'expression', property: 'property' };

/**
 * True when the driver finds the origin in the topic without `expression`: the level the
 * filter's first `+` matches, or what a regular-expression topic name (`^...`) captures
 * (docs/devices.md, "Origin strategies").
 */
function topicGivesOrigin(topicName: string | undefined): boolean {
  if (topicName === undefined) return true; // nothing to judge: the schema reports a missing topicName
  return topicName.startsWith('^') || topicName.split('/').includes('+');
}

/**
 * Checks the `topics` of MQTT driver entries (originTypes entries whose originType contains
 * `mqtt`): each `datapointSet` names a set of the template, `originStrategy.strategyId` and
 * `operationMode` are values the driver knows, and a strategy has the key it works from.
 * Missing keys are not reported: the driver's required keys are not documented.
 */
export const checkMqtt: SemanticCheck = (model, reporter) => {
  const originTypes = model.root['originTypes'];
  if (!Array.isArray(originTypes)) return;
  const setIds = [...model.setsById.keys()];
  for (let i = 0; i < originTypes.length; i++) {
    const entry: unknown = originTypes[i];
    if (!isObject(entry)) continue;
    const originType = stringOrUndefined(entry['originType']);
    if (originType === undefined || !originType.toLowerCase().includes('mqtt')) continue;
    const topics = arrayAt(entry, 'topics');
    for (let t = 0; t < topics.length; t++) {
      const topic: unknown = topics[t];
      if (!isObject(topic)) continue;
      const path: DocumentPath = ['originTypes', i, 'topics', t];
      const setId = stringOrUndefined(topic['datapointSet']);
      if (setId !== undefined && !model.setsById.has(setId)) {
        const suggestion = suggestName(setId, setIds);
        reporter.report('DT_WARN_SEM_MQTT_SET_UNKNOWN', [...path, 'datapointSet'], {
          message:
            `The topic fills the datapointSet '${setId}', which the template does not have` +
            (suggestion !== undefined ? `; did you mean '${suggestion}'?` : `; sets: ${listOf(setIds) || 'none'}.`),
          found: setId,
          allowed: setIds.join(', '),
          ...(suggestion !== undefined ? { suggestion } : {}),
        });
      }
      checkStrategy(
        topic['originStrategy'],
        [...path, 'originStrategy'],
        stringOrUndefined(topic['topicName']),
        reporter,
      );
      const mode = stringOrUndefined(topic['operationMode']);
      if (mode !== undefined && !MQTT_OPERATION_MODES.includes(mode)) {
        const suggestion = suggestKey(mode, MQTT_OPERATION_MODES);
        reporter.report('DT_WARN_SEM_MQTT_OPERATION_MODE_UNKNOWN', [...path, 'operationMode'], {
          message:
            `The operation mode '${mode}' is unknown to the MQTT driver; use 'extract' (addresses are ` +
            `dot paths) or 'transform' (addresses are JSONPath expressions).`,
          found: mode,
          allowed: MQTT_OPERATION_MODES.join(', '),
          ...(suggestion !== undefined ? { suggestion } : {}),
        });
      }
    }
  }
};

function checkStrategy(
  strategy: unknown,
  path: DocumentPath,
  topicName: string | undefined,
  reporter: SemanticReporter,
): void {
  if (!isObject(strategy)) return;
  const id = stringOrUndefined(strategy['strategyId']);
  if (id === undefined) return;
  if (!MQTT_ORIGIN_STRATEGIES.includes(id)) {
    const suggestion = suggestKey(id, MQTT_ORIGIN_STRATEGIES);
    reporter.report('DT_WARN_SEM_MQTT_STRATEGY_UNKNOWN', [...path, 'strategyId'], {
      message:
        `The origin strategy '${id}' is unknown to the MQTT driver, which takes ` +
        `${listOf(MQTT_ORIGIN_STRATEGIES, 'or')}` +
        (suggestion !== undefined ? `; did you mean '${suggestion}'?` : '.'),
      found: id,
      allowed: MQTT_ORIGIN_STRATEGIES.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
    return;
  }
  const needed = STRATEGY_NEEDS[id];
  if (needed === undefined || (id === 'topic' && topicGivesOrigin(topicName))) return;
  const value = strategy[needed];
  if (typeof value === 'string' && value.length > 0) return;
  reporter.report('DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE', [...path, 'strategyId'], {
    message:
      id === 'topic'
        ? "The origin strategy 'topic' takes the origin from a '+' level of the topic filter or through the " +
          `regular expression in 'expression', but the topic name ${JSON.stringify(topicName)} has no '+' ` +
          "level and 'expression' is missing or empty."
        : "The origin strategy 'property' takes the origin from the payload at 'property' (a dot path or JSONPath), " +
          "but 'property' is missing or empty.",
    found: id,
    suggestion: `add ${needed} to originStrategy`,
  });
}
