import { DATAPOINT_BLOCKS } from '../datapoint-blocks.js';
import type { DocumentPath } from '../problem.js';
import { isObject } from '@triad/common';
import { andList, describeFound, describePlace, foundValue, subjectOf, valueAt } from './document-places.js';
import { draftAt, type ProblemDraft } from './problem-draft.js';

/**
 * One message per broken combination rule. ajv reports an `anyOf`/`oneOf`/`if` failure as a
 * pile of branch errors; these builders look at the data instead and say which rule was
 * broken, what the element has and what would be allowed.
 */
export type RuleProblems = (root: unknown, path: DocumentPath) => ProblemDraft[];

const COMBINATIONS =
  'commonConfig with addressConfig (read by a driver), commonConfig with calcConfig (computed), or commonConfig ' +
  'with defaultValueConfig (a fixed default); addressConfig and calcConfig never together';

/** The datapoint anyOf: commonConfig plus exactly one kind of source. */
export const datapointCombination: RuleProblems = (root, path) => {
  const point = valueAt(root, path);
  if (!isObject(point)) return [];
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(point, key);
  const present = Object.keys(point);
  const blocks = present.length > 0 ? `it has ${andList(present)}` : 'it is empty';
  const name = describePlace(root, path);
  let message: string;
  if (!has('commonConfig')) {
    message =
      `${name} has no commonConfig (${blocks}); every datapoint needs commonConfig with datapointId and ` +
      `datapointType, plus addressConfig, calcConfig or defaultValueConfig`;
  } else if (has('addressConfig') && has('calcConfig')) {
    message =
      `${name} has both addressConfig and calcConfig; a datapoint is either read by a driver ` +
      `(addressConfig) or computed from an expression (calcConfig), not both`;
  } else {
    message =
      `${name} has no source for its value (${blocks}); add addressConfig (read by a driver), calcConfig ` +
      `(computed from an expression) or defaultValueConfig (a fixed default)`;
  }
  const found = present.filter((key) => DATAPOINT_BLOCKS.includes(key));
  return [draftAt('DT_ERR_SCHEMA_DATAPOINT_COMBINATION', path, message, { found, allowed: COMBINATIONS })];
};

/** The datapoint if/then: a #TIMEPOINT datapoint has exactly commonConfig and addressConfig. */
export const timepointBlocks: RuleProblems = (root, path) => {
  const point = valueAt(root, path);
  if (!isObject(point)) return [];
  const extra = Object.keys(point).filter((key) => key !== 'commonConfig' && key !== 'addressConfig');
  const fixes: string[] = [];
  if (extra.length > 0) fixes.push(`remove ${andList(extra)}`);
  if (!Object.prototype.hasOwnProperty.call(point, 'addressConfig')) fixes.push('add addressConfig');
  const message =
    `${describePlace(root, path)} has datapointType "#TIMEPOINT", which allows only commonConfig and ` +
    `addressConfig (both required); ${fixes.join(' and ')}, or use another datapointType such as "TIMEPOINT"`;
  return [
    draftAt('DT_ERR_SCHEMA_TIMEPOINT_BLOCKS', path, message, {
      found: Object.keys(point),
      allowed: 'commonConfig and addressConfig, nothing else',
    }),
  ];
};

/** The datapoint-set if/then: table sets need tableAddress. */
export const tableAddressRequired: RuleProblems = (root, path) => {
  const set = valueAt(root, path);
  if (!isObject(set)) return [];
  const type = typeof set['datapointSetType'] === 'string' ? set['datapointSetType'] : 'table';
  const message =
    `${describePlace(root, path)} is a ${type} set and needs tableAddress, e.g. { rootAddress: ` +
    `"1.3.6.1.2.1.2.2", indexes: ["ifIndex"] } (rootAddress is the driver's table address, indexes the datapoints ` +
    `that identify a row)`;
  return [
    {
      ...draftAt('DT_ERR_SCHEMA_TABLE_ADDRESS_REQUIRED', [...path, 'tableAddress'], message, {
        allowed: 'tableAddress is required when datapointSetType is tableStatic or tableDynamic',
      }),
      at: path,
    },
  ];
};

const LOG_BAND = { min: 1, max: 200 };
const ALARM_BAND = { min: 201, max: 1000 };
const BANDS = 'all log evaluations (severity 1 to 200) or all alarms (severity 201 to 1000)';

/** The evaluations oneOf: every severity of one datapoint lies in the same band. */
export const severityBands: RuleProblems = (root, path) => {
  const evaluations = valueAt(root, path);
  if (!Array.isArray(evaluations)) return [];
  const logs: number[] = [];
  const alarms: number[] = [];
  const out: ProblemDraft[] = [];
  evaluations.forEach((evaluation, index) => {
    const severity = isObject(evaluation) ? evaluation['severity'] : undefined;
    if (typeof severity !== 'number' || !Number.isInteger(severity)) return;
    if (severity >= LOG_BAND.min && severity <= LOG_BAND.max) logs.push(severity);
    else if (severity >= ALARM_BAND.min && severity <= ALARM_BAND.max) alarms.push(severity);
    else {
      const severityPath = [...path, index, 'severity'];
      out.push(
        draftAt(
          'DT_ERR_SCHEMA_SEVERITY_BAND',
          severityPath,
          `${subjectOf(root, severityPath)} ${severity} is outside both bands: use 1 to 200 for a log evaluation or ` +
            `201 to 1000 for an alarm (201 info, 401 warning, 601 error, 801 critical)`,
          { found: severity, allowed: '1 to 200 (logs) or 201 to 1000 (alarms)' },
        ),
      );
    }
  });
  if (out.length === 0 && logs.length > 0 && alarms.length > 0) {
    const message =
      `${subjectOf(root, path)} mixes log evaluations (severity ${distinct(logs)}) and alarms ` +
      `(severity ${distinct(alarms)}); the evaluations of one datapoint must be ${BANDS}, so move one kind to ` +
      `another datapoint`;
    out.push(draftAt('DT_ERR_SCHEMA_SEVERITY_BAND', path, message, { allowed: BANDS }));
  }
  return out;
};

function distinct(values: readonly number[]): string {
  return andList([...new Set(values)].map(String));
}

/** The unitsConfig anyOf: from with to, or from with toBest (and no to). */
export const unitsCombination: RuleProblems = (root, path) => {
  const units = valueAt(root, path);
  if (!isObject(units)) return [];
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(units, key);
  const allowed =
    '"from" with "to" (a fixed unit), or "from" with "toBest" and optionally "exclude" (the most readable unit, ' +
    'without "to")';
  let complaint: string;
  if (!has('from')) complaint = 'has no "from" (the unit of the value as read)';
  else if (!has('to') && !has('toBest'))
    complaint = 'has "from" but neither "to" (convert to a fixed unit) nor "toBest" (pick the most readable unit)';
  else complaint = 'combines "to" with both "toBest" and "exclude"';
  const message = `${subjectOf(root, path)} ${complaint}; write ${allowed}`;
  return [draftAt('DT_ERR_SCHEMA_UNITS_COMBINATION', path, message, { found: Object.keys(units), allowed })];
};

/** The defaultValueConfig anyOf: isDefault plus value or rawValue. */
export const defaultValueRequired: RuleProblems = (root, path) => {
  const config = valueAt(root, path);
  if (!isObject(config)) return [];
  const place = describePlace(root, path);
  const out: ProblemDraft[] = [];
  if (!Object.prototype.hasOwnProperty.call(config, 'isDefault')) {
    out.push({
      ...draftAt(
        'DT_ERR_SCHEMA_REQUIRED',
        [...path, 'isDefault'],
        `${place} is missing the required key "isDefault" (true marks the value as a substitute)`,
      ),
      at: path,
    });
  }
  if (
    !Object.prototype.hasOwnProperty.call(config, 'value') &&
    !Object.prototype.hasOwnProperty.call(config, 'rawValue')
  ) {
    out.push({
      ...draftAt(
        'DT_ERR_SCHEMA_REQUIRED',
        [...path, 'value'],
        `${place} needs "value" or "rawValue": the substitute used when the datapoint has none`,
        {
          allowed: 'isDefault plus at least one of value and rawValue',
        },
      ),
      at: path,
    });
  }
  return out;
};

/** The valueMap entry value oneOf, where a whole number matches two alternatives and fails. */
export const valueMapValue: RuleProblems = (root, path) => {
  const value = valueAt(root, path);
  const allowed = 'a string, a boolean or a number with a fraction (write whole numbers as strings)';
  if (typeof value === 'number' && Number.isInteger(value)) {
    const message =
      `${subjectOf(root, path)} is the whole number ${value}, which NetinDS rejects: it requires the ` +
      `value to match exactly one of string, number, boolean and integer, and a whole number is both a number and ` +
      `an integer; write it as a string: "${value}"`;
    return [
      draftAt('DT_ERR_SCHEMA_VALUE_MAP_INTEGER', path, message, {
        found: value,
        allowed,
        suggestion: JSON.stringify(String(value)),
      }),
    ];
  }
  return [typeProblem(root, path, value, 'a string, a number or a boolean')];
};

/** The valueMap entry key oneOf: a string, a number or a boolean. */
export const valueMapKey: RuleProblems = (root, path) => [
  typeProblem(root, path, valueAt(root, path), 'a string, a number or a boolean'),
];

function typeProblem(root: unknown, path: DocumentPath, value: unknown, expected: string): ProblemDraft {
  const message = `${subjectOf(root, path)} must be ${expected}, found ${describeFound(value)}`;
  return draftAt('DT_ERR_SCHEMA_TYPE', path, message, { found: foundValue(value), allowed: expected });
}

/** Problems for a rule the schema has but no builder above knows; states the rule's description. */
export function unknownRule(description: string | undefined): RuleProblems {
  return (root, path) => [
    draftAt(
      'DT_ERR_SCHEMA_INVALID',
      path,
      `${subjectOf(root, path)} breaks a rule of the template ` +
        `schema${description !== undefined ? `: ${description}` : ''}`,
    ),
  ];
}
