import { isObject } from '@triad/common';
import { DATAPOINT_BLOCKS } from '../datapoint-blocks.js';
import type { ErrorObject } from 'ajv';
import type { DocumentPath } from '../problem.js';
import type { SourceFormat } from '../loading/loaded-document.js';
import {
  describeContainer,
  describeFound,
  describePlace,
  describeTypes,
  foundValue,
  quote,
  subjectOf,
  valueAt,
} from './document-places.js';
import { explainPattern } from './pattern-rules.js';
import { draftAt, type ProblemDraft } from './problem-draft.js';
import { knownKeysOf, resolveRef, schemaLocationOf } from './schema-locations.js';
import { suggestKey } from './suggest-key.js';
import type { JsonSchemaObject } from './template-schema.js';

/** What the keyword mapper needs besides the error: the parsed document and its format. */
export interface KeywordContext {
  readonly root: unknown;
  readonly format: SourceFormat;
  /** The value's source text when it is a plain scalar (YAML `1.0` parses to 1 but reads "1.0"). */
  readonly sourceText?: (path: DocumentPath) => string | undefined;
}

/**
 * Turns one ajv error of a plain keyword (not a combinator) into problems with a message that
 * states the real constraint. `path` is the error's instance path as segments.
 */
export function keywordProblems(error: ErrorObject, path: DocumentPath, context: KeywordContext): ProblemDraft[] {
  const { root } = context;
  const parent: JsonSchemaObject = error.parentSchema ?? {};
  const location = schemaLocationOf(error.parentSchema) ?? '';
  const data: unknown = error.data;
  const subject = subjectOf(root, path);
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return [missingKey(root, path, String(params['missingProperty']), parent)];
    case 'additionalProperties':
      return [unknownKey(root, path, String(params['additionalProperty']), parent, location)];
    case 'false schema':
      return [forbiddenKey(root, path)];
    case 'type':
      if (location === '/definitions/datapoint/additionalProperties') return [nonObjectExtraBlock(root, path, data)];
      if (location === '/definitions/anyValue' && data === null) {
        const allowed = 'a string, number, boolean, list or object';
        return [
          draftAt('DT_ERR_SCHEMA_TYPE', path, `${subject} must not be null; give the substitute itself (${allowed})`, {
            found: null,
            allowed,
          }),
        ];
      }
      return [wrongType(subject, path, data, error.schema, context.format, context.sourceText?.(path))];
    case 'pattern': {
      const text = typeof data === 'string' ? data : String(data);
      const explained = explainPattern(location, text);
      const complaint = explained?.complaint ?? `does not have the required form${describeRule(parent)}`;
      return [
        draftAt('DT_ERR_SCHEMA_PATTERN', path, `${subject} ${quote(text)} ${complaint}`, {
          found: foundValue(data),
          allowed: explained?.allowed,
        }),
      ];
    }
    case 'enum':
      return [notInEnum(subject, path, data, (params['allowedValues'] as unknown[] | undefined) ?? [])];
    case 'minLength':
    case 'maxLength':
      return [lengthProblem(error.keyword, subject, path, data, parent)];
    case 'minimum':
    case 'maximum':
      return [rangeProblem(error.keyword, subject, path, data, parent)];
    case 'minItems': {
      const limit = Number(params['limit']);
      const noun = ITEM_NOUNS[String(path[path.length - 1])] ?? 'entry';
      const count = limit === 1 ? `one ${noun}` : `${limit} entries`;
      return [
        draftAt('DT_ERR_SCHEMA_MIN_ITEMS', path, `${subject} is empty; it needs at least ${count}`, {
          allowed: `at least ${count}`,
        }),
      ];
    }
    case 'uniqueItems': {
      const later = Number(params['i']);
      const earlier = Number(params['j']);
      const laterPath = [...path, later];
      return [
        draftAt(
          'DT_ERR_SCHEMA_DUPLICATE',
          laterPath,
          `${subjectOf(root, path)}[${later}] is identical to entry [${earlier}]; remove one of them`,
          {
            allowed: 'entries that are not exact copies of each other',
          },
        ),
      ];
    }
    case 'uniqueItemProperties':
      return duplicateProperties(root, path, Array.isArray(error.schema) ? error.schema.map(String) : []);
    default:
      return [
        draftAt('DT_ERR_SCHEMA_INVALID', path, `${subject} ${error.message ?? 'breaks a rule of the template schema'}`),
      ];
  }
}

const ITEM_NOUNS: Readonly<Record<string, string>> = {
  datapointSets: 'datapoint set',
  datapoints: 'datapoint',
  evaluations: 'evaluation',
  originTypes: 'driver entry',
  representation: 'widget',
  format: 'field',
};

const WIDGET_CONFIGS: Readonly<Record<string, string>> = {
  '/definitions/mapWidgetConfig': 'map',
  '/definitions/tableWidgetConfig': 'table',
  '/definitions/metricWidgetConfig': 'metric',
  '/definitions/gaugeWidgetConfig': 'gauge',
};

function describeRule(parent: JsonSchemaObject): string {
  const description = parent['description'];
  return typeof description === 'string' ? `: ${description}` : '';
}

function missingKey(root: unknown, path: DocumentPath, key: string, parent: JsonSchemaObject): ProblemDraft {
  let message = `${describePlace(root, path)} is missing the required key ${quote(key)}`;
  const owner = valueAt(root, path);
  if (key === 'pollingGroup' && isObject(owner) && owner['receiveMode'] === 'subscription') {
    message += '; NetinDS requires it even when receiveMode is "subscription"';
  }
  const properties = resolveRef(parent)?.['properties'];
  const property = isObject(properties) ? (properties[key] as JsonSchemaObject | undefined) : undefined;
  const description = property?.['description'] ?? resolveRef(property)?.['description'];
  return {
    ...draftAt('DT_ERR_SCHEMA_REQUIRED', [...path, key], message, {
      allowed: typeof description === 'string' ? description : undefined,
    }),
    at: path,
  };
}

function unknownKey(
  root: unknown,
  path: DocumentPath,
  key: string,
  parent: JsonSchemaObject,
  location: string,
): ProblemDraft {
  const keyPath = [...path, key];
  const known = knownKeysOf(parent);
  const widget = WIDGET_CONFIGS[location];
  const where = describeContainer(root, path) + (widget !== undefined ? ` (a ${widget} widget)` : '');
  const allowed = known.length > 0 ? `known keys: ${known.join(', ')}` : 'no other keys';
  const suggestion = suggestKey(key, known);
  const message =
    `unknown key ${quote(key)} ${where}` +
    (suggestion !== undefined ? `; did you mean ${quote(suggestion)}?` : `; ${allowed}`);
  return {
    ...draftAt('DT_ERR_SCHEMA_ADDITIONAL_PROPERTY', keyPath, message, { found: key, allowed, suggestion }),
    which: 'key',
  };
}

function forbiddenKey(root: unknown, path: DocumentPath): ProblemDraft {
  const key = String(path[path.length - 1]);
  const message =
    `key ${quote(key)} is not accepted ${describeContainer(root, path.slice(0, -1))}: NetinDS rejects ` +
    `this key name there; remove it`;
  return { ...draftAt('DT_ERR_SCHEMA_ADDITIONAL_PROPERTY', path, message, { found: key }), which: 'key' };
}

function nonObjectExtraBlock(root: unknown, path: DocumentPath, data: unknown): ProblemDraft {
  const key = String(path[path.length - 1]);
  const suggestion = suggestKey(key, DATAPOINT_BLOCKS);
  const message =
    `unknown key ${quote(key)} ${describeContainer(root, path.slice(0, -1))} holds ${describeFound(data)}; ` +
    'a datapoint accepts extra keys only when they hold an object' +
    (suggestion !== undefined
      ? `; did you mean ${quote(suggestion)}?`
      : `; known blocks: ${DATAPOINT_BLOCKS.join(', ')}`);
  return {
    ...draftAt('DT_ERR_SCHEMA_ADDITIONAL_PROPERTY', path, message, {
      found: key,
      allowed: `known blocks: ${DATAPOINT_BLOCKS.join(', ')}`,
      suggestion,
    }),
    which: 'key',
  };
}

function wrongType(
  subject: string,
  path: DocumentPath,
  data: unknown,
  type: unknown,
  format: SourceFormat,
  source: string | undefined,
): ProblemDraft {
  const expected = describeTypes(type);
  let message = `${subject} must be ${expected}, found ${describeFound(data)}`;
  const wantsString = type === 'string' || (Array.isArray(type) && type.includes('string'));
  if (wantsString && (typeof data === 'number' || typeof data === 'boolean')) {
    const written = JSON.stringify(source ?? String(data));
    message += format === 'yaml' ? `; in YAML, put it in quotes: ${written}` : `; put it in quotes: ${written}`;
  }
  return draftAt('DT_ERR_SCHEMA_TYPE', path, message, { found: foundValue(data), allowed: expected });
}

function notInEnum(subject: string, path: DocumentPath, data: unknown, values: readonly unknown[]): ProblemDraft {
  const words = values.map(String);
  const text = typeof data === 'string' ? data : undefined;
  let suggestion = text !== undefined ? suggestKey(text, words) : undefined;
  // Very short values (5s, 1m) are a keystroke apart from each other; only suggest when the
  // match is the same word written differently or the value is long enough to be a typo.
  if (
    suggestion !== undefined &&
    text !== undefined &&
    text.length < 4 &&
    suggestion.toLowerCase() !== text.toLowerCase()
  )
    suggestion = undefined;
  const allowed = `one of: ${words.join(', ')}`;
  const message =
    `${subject} ${quote(data)} is not allowed; use ${allowed}` +
    (suggestion !== undefined ? `; did you mean ${quote(suggestion)}?` : '');
  return draftAt('DT_ERR_SCHEMA_ENUM', path, message, { found: foundValue(data), allowed, suggestion });
}

function lengthProblem(
  keyword: 'minLength' | 'maxLength',
  subject: string,
  path: DocumentPath,
  data: unknown,
  parent: JsonSchemaObject,
): ProblemDraft {
  const min = typeof parent['minLength'] === 'number' ? parent['minLength'] : 0;
  const max = typeof parent['maxLength'] === 'number' ? parent['maxLength'] : undefined;
  const allowed =
    max === undefined
      ? `at least ${characters(min)}`
      : min > 0
        ? `${min} to ${characters(max)}`
        : `at most ${characters(max)}`;
  const length = typeof data === 'string' ? [...data].length : 0;
  if (keyword === 'minLength') {
    const message =
      length === 0 ? `${subject} is empty; use ${allowed}` : `${subject} has ${length} characters; use ${allowed}`;
    return draftAt('DT_ERR_SCHEMA_MIN_LENGTH', path, message, { found: foundValue(data), allowed });
  }
  return draftAt('DT_ERR_SCHEMA_MAX_LENGTH', path, `${subject} has ${length} characters; use ${allowed}`, {
    found: foundValue(data),
    allowed,
  });
}

function characters(count: number): string {
  return count === 1 ? '1 character' : `${count} characters`;
}

function rangeProblem(
  keyword: 'minimum' | 'maximum',
  subject: string,
  path: DocumentPath,
  data: unknown,
  parent: JsonSchemaObject,
): ProblemDraft {
  const min = typeof parent['minimum'] === 'number' ? parent['minimum'] : undefined;
  const max = typeof parent['maximum'] === 'number' ? parent['maximum'] : undefined;
  const allowed =
    min !== undefined && max !== undefined
      ? `${min} to ${max}`
      : min !== undefined
        ? `at least ${min}`
        : `at most ${String(max)}`;
  const code = keyword === 'minimum' ? 'DT_ERR_SCHEMA_MINIMUM' : 'DT_ERR_SCHEMA_MAXIMUM';
  return draftAt(code, path, `${subject} is ${String(data)}; it must be ${allowed}`, {
    found: foundValue(data),
    allowed,
  });
}

/** uniqueItemProperties: reports each later entry whose key value repeats an earlier one. */
function duplicateProperties(root: unknown, path: DocumentPath, keys: readonly string[]): ProblemDraft[] {
  const items = valueAt(root, path);
  if (!Array.isArray(items)) return [];
  const out: ProblemDraft[] = [];
  for (const key of keys) {
    const firstSeen = new Map<string, number>();
    items.forEach((item, index) => {
      const value = isObject(item) ? item[key] : undefined;
      if (value === undefined) return;
      const hash = JSON.stringify(value);
      const earlier = firstSeen.get(hash);
      if (earlier === undefined) {
        firstSeen.set(hash, index);
        return;
      }
      const message =
        `${subjectOf(root, path)}[${earlier}] and [${index}] both have ${key} ${quote(value)}; each ` +
        `entry needs its own ${key}`;
      out.push(
        draftAt('DT_ERR_SCHEMA_DUPLICATE', [...path, index, key], message, {
          found: foundValue(value),
          allowed: `a different ${key} for every entry`,
        }),
      );
    });
  }
  return out;
}
