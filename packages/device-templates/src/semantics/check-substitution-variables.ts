import { suggestKey } from '../schema/suggest-key.js';
import type { DocumentPath } from '../problem.js';
import { quote, type SemanticReporter, type SemanticCheck } from './semantic-reporter.js';
import { isObject } from '@triad/common';

/** The variables discovery fills in, written `/{NAME}/` in `origin` and in driver settings. */
export const SUBSTITUTION_VARIABLES: readonly string[] = Object.freeze([
  'ICMP_IPAddress',
  'DCP_IPAddress',
  'DCP_MACAddress',
  'DCP_NameOfStation',
]);

const KNOWN: ReadonlySet<string> = new Set(SUBSTITUTION_VARIABLES);
const PLACEHOLDER = /\/\{([^{}]*)\}\//g;
// A brace placeholder left over once the well-formed `/{NAME}/` ones are removed: `{NAME}`, `${NAME}`, `/{NAME}`.
const BRACED = /\{\s*([A-Za-z_][\w.-]*)\s*\}/;
const KNOWN_NAME = new RegExp(`(?<![\\w])(${SUBSTITUTION_VARIABLES.join('|')})(?![\\w])`);
const MAX_DEPTH = 32;

/** A name a device's `variables` can fill (letters, digits, `_`). */
export const DEVICE_VARIABLE = /^[A-Za-z0-9_]{1,80}$/;

/**
 * Checks `/{NAME}/` substitution variables in `origin` and anywhere inside `originTypes`
 * values. Discovery fills the four discovery variables; a device (`POST /devices`) fills any
 * name of letters, digits and `_`. So a name is reported when neither can fill it, or when it is
 * a near miss of a discovery variable (discovery will not fill `/{ICMP_IpAddress}/`: a typo,
 * most likely). A known variable must be written in the `/{NAME}/` form (a bare
 * `{ICMP_IPAddress}` or `ICMP_IPAddress` is taken literally).
 */
export const checkSubstitutionVariables: SemanticCheck = (model, reporter) => {
  const origin = model.root['origin'];
  if (typeof origin === 'string') checkString(origin, ['origin'], reporter);
  const originTypes = model.root['originTypes'];
  if (Array.isArray(originTypes)) {
    for (let i = 0; i < originTypes.length; i++) walk(originTypes[i], ['originTypes', i], reporter, MAX_DEPTH);
  }
};

function walk(value: unknown, path: DocumentPath, reporter: SemanticReporter, depth: number): void {
  if (depth <= 0) return;
  if (typeof value === 'string') {
    checkString(value, path, reporter);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], [...path, i], reporter, depth - 1);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) walk(value[key], [...path, key], reporter, depth - 1);
  }
}

function checkString(text: string, path: DocumentPath, reporter: SemanticReporter): void {
  // Fast path: most strings hold neither a brace nor a variable name.
  if (!text.includes('{') && !text.includes('_')) return;
  let unknownFound = false;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (KNOWN.has(name)) continue;
    unknownFound = true;
    const suggestion = suggestKey(name, SUBSTITUTION_VARIABLES);
    const fillable = DEVICE_VARIABLE.test(name);
    if (fillable && suggestion === undefined) continue;
    reporter.report('DT_WARN_SEM_VARIABLE_UNKNOWN', path, {
      message: fillable
        ? `The substitution variable /{${name}}/ is not a discovery variable: discovery does not fill it, ` +
          `only a device that gives "variables": {"${name}": ...}; did you mean /{${suggestion}}/?`
        : `The substitution variable /{${name}}/ is never replaced: discovery variables are ` +
          `${SUBSTITUTION_VARIABLES.map((v) => `/{${v}}/`).join(', ')}, and a device's variables are ` +
          `named with letters, digits and _ only.`,
      found: text,
      allowed: SUBSTITUTION_VARIABLES.join(', '),
      ...(suggestion !== undefined ? { suggestion: `/{${suggestion}}/` } : {}),
    });
  }
  if (unknownFound) return;
  const rest = text.replace(PLACEHOLDER, '');
  const braced = BRACED.exec(rest);
  const bare = braced === null ? KNOWN_NAME.exec(rest) : null;
  const name = braced?.[1] ?? bare?.[1];
  if (name === undefined) return;
  if (braced === null && !KNOWN.has(name)) return;
  const intended = KNOWN.has(name) ? name : suggestKey(name, SUBSTITUTION_VARIABLES);
  reporter.report('DT_WARN_SEM_VARIABLE_MALFORMED', path, {
    message:
      `The value ${quote(text)} holds ${braced !== null ? `'${braced[0]}'` : `'${name}'`}, which is taken literally; ` +
      `a substitution variable must be written with slashes and ` +
      `braces${intended !== undefined ? `, as /{${intended}}/` : ', as /{NAME}/'}.`,
    found: text,
    ...(intended !== undefined ? { suggestion: `/{${intended}}/` } : {}),
  });
}
