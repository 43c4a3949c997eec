/**
 * Reads the OID assignments out of MIB module text (SMIv1 and SMIv2): the module's name, what it
 * imports from which module, and each `name MACRO ... ::= { parent 1 2 }` or `name OBJECT
 * IDENTIFIER ::= { ... }`. Nothing else of the module (syntax, descriptions, textual
 * conventions) is kept: names are all the driver and the validator need. Pure: text in, values out.
 */

/** One OID assignment: the parent's name (or a number for `{ 1 3 6 }`) and the sub-identifiers below it. */
export interface MibAssignment {
  readonly parent: string | undefined;
  readonly subIds: readonly number[];
}

export interface MibModule {
  readonly name: string;
  /** Imported name → the module it comes from. */
  readonly imports: ReadonlyMap<string, string>;
  readonly assignments: ReadonlyMap<string, MibAssignment>;
}

/** The macros whose value is an OID. */
const OID_MACROS = new Set([
  'OBJECT-TYPE',
  'MODULE-IDENTITY',
  'OBJECT-IDENTITY',
  'NOTIFICATION-TYPE',
  'OBJECT-GROUP',
  'NOTIFICATION-GROUP',
  'MODULE-COMPLIANCE',
  'AGENT-CAPABILITIES',
  'TRAP-TYPE',
]);

const IDENTIFIER = /[A-Za-z][A-Za-z0-9_-]*/y;
const NUMBER = /\d+/y;

/** ASN.1 tokens: identifiers, numbers, `::=` and single punctuation; strings and comments dropped. */
export function mibTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
    } else if (c === '-' && text[i + 1] === '-') {
      // A comment runs to the next `--` or the end of the line.
      const end = text.indexOf('\n', i + 2);
      const close = text.indexOf('--', i + 2);
      i = close !== -1 && (end === -1 || close < end) ? close + 2 : end === -1 ? text.length : end + 1;
    } else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      i = end === -1 ? text.length : end + 1;
      if (c === "'" && /[HhBb]/.test(text[i] ?? '')) i++;
    } else if (c === ':' && text.startsWith('::=', i)) {
      tokens.push('::=');
      i += 3;
    } else {
      IDENTIFIER.lastIndex = i;
      NUMBER.lastIndex = i;
      const word = IDENTIFIER.exec(text) ?? NUMBER.exec(text);
      if (word !== null) {
        tokens.push(word[0]);
        i += word[0].length;
      } else {
        tokens.push(c);
        i++;
      }
    }
  }
  return tokens;
}

/** Every module in `text` (a file usually holds one); a module that cannot be read is left out. */
export function parseMibModules(text: string): MibModule[] {
  const tokens = mibTokens(text);
  const modules: MibModule[] = [];
  let i = 0;
  while (i < tokens.length) {
    const definitions = tokens.indexOf('DEFINITIONS', i);
    if (definitions < 1) break;
    const name = tokens[definitions - 1] ?? '';
    const begin = tokens.indexOf('BEGIN', definitions);
    if (begin === -1) break;
    const { module, next } = parseBody(name, tokens, begin + 1);
    modules.push(module);
    i = next;
  }
  return modules;
}

function parseBody(name: string, tokens: readonly string[], start: number): { module: MibModule; next: number } {
  const imports = new Map<string, string>();
  const assignments = new Map<string, MibAssignment>();
  let i = start;
  while (i < tokens.length) {
    const token = tokens[i] ?? '';
    if (token === 'END') return { module: { name, imports, assignments }, next: i + 1 };
    if (token === 'IMPORTS') {
      i = parseImports(tokens, i + 1, imports);
      continue;
    }
    if (tokens[i + 1] === 'MACRO') {
      // A macro's own definition (SNMPv2-SMI) holds `::=` of its grammar: skip to its END.
      const end = tokens.indexOf('END', i + 2);
      i = end === -1 ? tokens.length : end + 1;
      continue;
    }
    const next = tokens[i + 1] ?? '';
    const isObjectIdentifier = next === 'OBJECT' && tokens[i + 2] === 'IDENTIFIER' && tokens[i + 3] === '::=';
    if (/^[a-z]/.test(token) && (OID_MACROS.has(next) || isObjectIdentifier)) {
      const assign = tokens.indexOf('::=', i + 2);
      if (assign === -1) break;
      const value = next === 'TRAP-TYPE' ? trapValue(tokens, i + 2, assign) : oidValue(tokens, assign + 1);
      if (value !== undefined && !assignments.has(token)) assignments.set(token, value.assignment);
      i = value?.next ?? assign + 1;
      continue;
    }
    i++;
  }
  return { module: { name, imports, assignments }, next: tokens.length };
}

function parseImports(tokens: readonly string[], start: number, imports: Map<string, string>): number {
  let pending: string[] = [];
  let i = start;
  while (i < tokens.length && tokens[i] !== ';') {
    const token = tokens[i] ?? '';
    if (token === 'FROM') {
      const from = tokens[i + 1] ?? '';
      for (const name of pending) imports.set(name, from);
      pending = [];
      i += 2;
      continue;
    }
    if (token !== ',') pending.push(token);
    i++;
  }
  return i + 1;
}

/** `{ parent 3 }`, `{ iso org(3) dod(6) 1 }` or `{ 1 3 6 1 }`. */
function oidValue(tokens: readonly string[], start: number): { assignment: MibAssignment; next: number } | undefined {
  if (tokens[start] !== '{') return undefined;
  const close = tokens.indexOf('}', start);
  if (close === -1) return undefined;
  const items = tokens.slice(start + 1, close);
  let parent: string | undefined;
  const subIds: number[] = [];
  for (let k = 0; k < items.length; k++) {
    const item = items[k] ?? '';
    if (/^\d+$/.test(item)) {
      subIds.push(Number(item));
    } else if (items[k + 1] === '(' && /^\d+$/.test(items[k + 2] ?? '') && items[k + 3] === ')') {
      // `org(3)`: the number counts; a first item `iso(1)` is a root number, not a name to resolve.
      subIds.push(Number(items[k + 2]));
      k += 3;
    } else if (k === 0 && /^[a-z]/.test(item)) {
      parent = item;
    } else {
      return undefined;
    }
  }
  if (parent === undefined && subIds.length === 0) return undefined;
  return { assignment: { parent, subIds }, next: close + 1 };
}

/** SMIv1 `ENTERPRISE name ... ::= n`. */
function trapValue(
  tokens: readonly string[],
  start: number,
  assign: number,
): { assignment: MibAssignment; next: number } | undefined {
  const enterprise = tokens.indexOf('ENTERPRISE', start);
  const number = tokens[assign + 1] ?? '';
  if (enterprise === -1 || enterprise > assign || !/^\d+$/.test(number)) return undefined;
  const parent = tokens[enterprise + 1];
  return { assignment: { parent, subIds: [0, Number(number)] }, next: assign + 2 };
}
