import { andList, quote } from './document-places.js';

/** A pattern failure explained: the complaint (after the subject and value) and the real rule. */
export interface PatternExplanation {
  /** Text that follows `<subject> "<value>" `, e.g. `contains "/", which is not allowed; ...`. */
  readonly complaint: string;
  /** The constraint in plain words. */
  readonly allowed: string;
}

const VERSION_RULE =
  'expected MAJOR.MINOR.PATCH such as 1.4.2 (optional leading "v", pre-release after "-", build after "+")';

/** A length-limited identifier made of one set of characters. */
interface CharsetRule {
  readonly max: number;
  readonly char: RegExp;
  /** `letters, digits, "-" or "_"` */
  readonly chars: string;
  readonly note?: string;
}

const CHARSET_RULES: Readonly<Record<string, CharsetRule>> = {
  '/definitions/templateId': { max: 80, char: /[a-zA-Z0-9 _-]/, chars: 'letters, digits, spaces, "-" or "_"' },
  '/definitions/originType': {
    max: 80,
    char: /[a-zA-Z0-9-]/,
    chars: 'letters, digits or "-"',
    note: 'driver ids such as svc-ds-drv-snmp have no "_" or "."',
  },
  '/definitions/datapointSetId': { max: 40, char: /[a-zA-Z0-9_-]/, chars: 'letters, digits, "-" or "_"' },
  '/definitions/datapointId': { max: 80, char: /[a-zA-Z0-9#&_-]/, chars: 'letters, digits, "#", "&", "-" or "_"' },
  '/definitions/addressConfig/properties/originDataType': {
    max: 80,
    char: /[a-zA-Z0-9_-]/,
    chars: 'letters, digits, "-" or "_"',
  },
  '/definitions/addressConfig/properties/originAddress': {
    max: 80,
    char: /[a-zA-Z0-9_&#:$.-]/,
    chars: 'letters, digits, "_", "&", "#", ":", "$", "." or "-"',
    note: 'spaces, "/", "," and brackets are not allowed',
  },
};

const PLAIN_ORIGIN: CharsetRule = { max: 80, char: /[a-zA-Z0-9_.-]/, chars: 'letters, digits, "-", "_" or "."' };

/**
 * Explains why `value` fails the pattern of the schema node at `location` (a pointer such as
 * `/definitions/datapointId`). Returns undefined for a node without a known explanation.
 */
export function explainPattern(location: string, value: string): PatternExplanation | undefined {
  if (location === '/definitions/version') {
    return {
      complaint: `is not a version: ${VERSION_RULE}`,
      allowed: 'MAJOR.MINOR.PATCH, e.g. 1.4.2, v2.0.0, 1.0.0-rc.1, 1.0.0+build.7',
    };
  }
  if (location === '/definitions/origin') return explainOrigin(value);
  if (location === '/definitions/representationData') {
    const allowed =
      'device[<datapointSetId>], device[<datapointSetId>.<datapointId>] or ' +
      'device[<datapointSetId>.<row>.<datapointId>]';
    return { complaint: `is not a data reference: write ${allowed}`, allowed };
  }
  const rule = CHARSET_RULES[location];
  return rule === undefined ? undefined : explainCharset(rule, value);
}

function explainCharset(rule: CharsetRule, value: string): PatternExplanation {
  const allowed = `1 to ${rule.max} ${rule.chars}` + (rule.note !== undefined ? ` (${rule.note})` : '');
  if (value.length === 0) return { complaint: `is empty; use ${allowed}`, allowed };
  const bad = badCharacters(value, rule.char);
  if (bad.length > 0) {
    const which = andList(bad.map(describeChar));
    const verb = bad.length === 1 ? 'is' : 'are';
    const tooLong = value.length > rule.max ? ` and it has ${value.length} characters` : '';
    return { complaint: `contains ${which}, which ${verb} not allowed${tooLong}; use ${allowed}`, allowed };
  }
  return { complaint: `has ${value.length} characters; at most ${rule.max} are allowed`, allowed };
}

function explainOrigin(value: string): PatternExplanation {
  const allowed =
    `a substitution variable /{NAME}/ such as /{ICMP_IPAddress}/, or a fixed name of 1 to 80 ` +
    `${PLAIN_ORIGIN.chars}`;
  if (value.startsWith('/') || value.includes('{')) {
    const inner = /^\/\{(.*)\}\/$/.exec(value)?.[1];
    if (inner === undefined) {
      return {
        complaint: `is not a substitution variable: write it as /{NAME}/, the whole value, e.g. /{DCP_IPAddress}/`,
        allowed,
      };
    }
    const problem = explainCharset(PLAIN_ORIGIN, inner).complaint;
    return { complaint: `is not a valid substitution variable: its name ${quote(inner)} ${problem}`, allowed };
  }
  return {
    complaint:
      `${explainCharset(PLAIN_ORIGIN, value).complaint}, or a substitution variable such as ` + `/{ICMP_IPAddress}/`,
    allowed,
  };
}

/** The distinct characters of `value` outside the allowed class, in order of appearance (at most 5). */
function badCharacters(value: string, allowedChar: RegExp): string[] {
  const out: string[] = [];
  for (const ch of value) {
    if (!allowedChar.test(ch) && !out.includes(ch)) out.push(ch);
    if (out.length === 5) break;
  }
  return out;
}

function describeChar(ch: string): string {
  if (ch === ' ') return 'a space';
  if (ch === '\t') return 'a tab';
  if (ch === '\n' || ch === '\r') return 'a line break';
  return quote(ch);
}
