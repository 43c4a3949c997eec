import { isObject } from '@triad/common';
import type { DocumentPath } from '../problem.js';
import type { SourceFormat } from './loaded-document.js';
import { arrayIndexOf } from './path-segment.js';

/**
 * Where a character of a string value is written in the source text: the mapping behind
 * `LoadedDocument.positionInString`, used to point at the offending part of an expression.
 *
 * The text from the value's start is decoded the way the parser decoded it, one unit at a time,
 * and every decoded UTF-16 unit is compared with the parsed value; the mapping is only trusted
 * when the decoded text is exactly the value. Handled:
 * - JSON strings, escapes included (`\n`, `\"`, `\uXXXX`; a surrogate pair written as two
 *   `\u` escapes is two units);
 * - YAML plain, single-quoted (`''` is one character) and double-quoted scalars (every escape
 *   of YAML 1.2), on one line or folded over several;
 * - YAML block scalars `|` and `>` whose indentation is detected (no indentation digit).
 *
 * A unit that stands for several written characters (an escape) maps to the escape's first
 * character; a line break folded into a space maps to the break. `offset === value.length` maps
 * just after the last character. Returns undefined when the text cannot be matched to the value
 * (a block scalar with an explicit indentation digit, an alias, a folding this reader does not
 * reproduce): callers then use the value's start.
 */
export function offsetInString(
  text: string,
  format: SourceFormat,
  start: number,
  value: string,
  offset: number,
): number | undefined {
  const trace = new Trace(value, start);
  if (format === 'json') traceJsonString(text, start, trace);
  else traceYamlScalar(text, start, trace);
  if (trace.failed || trace.at.length !== value.length) return undefined;
  const k = Number.isFinite(offset) ? Math.max(0, Math.min(Math.trunc(offset), value.length)) : 0;
  return k < value.length ? trace.at[k] : trace.end;
}

/** The string at `path` in a parsed value, or undefined when there is none. */
export function stringAt(root: unknown, path: DocumentPath): string | undefined {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[arrayIndexOf(segment)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, String(segment))) {
      node = node[String(segment)];
    } else return undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

/** The offsets of the decoded units so far, checked against the parsed value as they come. */
class Trace {
  readonly at: number[] = [];
  failed = false;
  /** Offset just after the written form of the last unit. */
  end: number;
  readonly #value: string;

  constructor(value: string, start: number) {
    this.#value = value;
    this.end = start;
  }

  /** True once every unit of the value is placed, or a unit did not match. */
  get done(): boolean {
    return this.failed || this.at.length >= this.#value.length;
  }

  /**
   * Records that the decoded `units` are written from `offset`, their written form ending at
   * `after`. Units past the value's end are ignored: the value's length, not the text, tells
   * where a scalar ends (the end of a plain scalar is not marked).
   */
  put(units: string, offset: number, after: number): void {
    if (this.done) return;
    for (let i = 0; i < units.length && this.at.length < this.#value.length; i += 1) {
      if (this.#value.charCodeAt(this.at.length) !== units.charCodeAt(i)) {
        this.failed = true;
        return;
      }
      this.at.push(offset);
    }
    this.end = after;
  }
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function traceJsonString(text: string, quote: number, trace: Trace): void {
  if (text.charCodeAt(quote) !== 0x22) return void (trace.failed = true);
  trace.end = quote + 1;
  let i = quote + 1;
  while (!trace.done && i < text.length) {
    const c = text.charAt(i);
    if (c === '"') break;
    if (c !== '\\') {
      trace.put(c, i, i + 1);
      i += 1;
    } else if (text[i + 1] === 'u') {
      trace.put(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), i, i + 6);
      i += 6;
    } else {
      const decoded = JSON_ESCAPES[text[i + 1] ?? ''];
      if (decoded === undefined) return void (trace.failed = true);
      trace.put(decoded, i, i + 2);
      i += 2;
    }
  }
}

/** The offset of a YAML node's content: after its properties (`!tag`, `&anchor`). */
function yamlContentStart(text: string, start: number): number {
  let i = start;
  while (text[i] === '!' || text[i] === '&') {
    while (i < text.length && !isBlank(text.charCodeAt(i))) i += 1;
    while (i < text.length && isBlank(text.charCodeAt(i))) i += 1;
  }
  return i;
}

function traceYamlScalar(text: string, start: number, trace: Trace): void {
  const s = yamlContentStart(text, start);
  trace.end = s;
  const c = text[s];
  if (c === '"') traceFlow(text, s + 1, trace, 'double');
  else if (c === "'") traceFlow(text, s + 1, trace, 'single');
  else if (c === '|' || c === '>') traceBlock(text, s, trace);
  else if (c === '*')
    trace.failed = true; // an alias: the string is written at its anchor
  else traceFlow(text, s, trace, 'plain');
}

const YAML_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const YAML_HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/**
 * A plain, single-quoted or double-quoted scalar from its first content character. Lines fold
 * as YAML folds them: blanks around a line break are dropped, one break becomes a space, n + 1
 * breaks become n line feeds. The value's length tells where a plain scalar ends.
 */
function traceFlow(text: string, from: number, trace: Trace, style: 'plain' | 'single' | 'double'): void {
  let i = from;
  while (!trace.done && i < text.length) {
    const c = text.charAt(i);
    if (style === 'single' && c === "'") {
      if (text[i + 1] !== "'") break;
      trace.put("'", i, i + 2);
      i += 2;
    } else if (style === 'double' && c === '"') {
      break;
    } else if (style === 'double' && c === '\\') {
      i = traceEscape(text, i, trace);
    } else if (c === ' ' || c === '\t') {
      // Blanks before a line break are not part of the value.
      let j = i;
      while (text[j] === ' ' || text[j] === '\t') j += 1;
      if (isBreak(text.charCodeAt(j))) i = j;
      else {
        trace.put(c, i, i + 1);
        i += 1;
      }
    } else if (isBreak(c.charCodeAt(0))) {
      const { breaks, next } = skipFold(text, i);
      trace.put(breaks === 1 ? ' ' : '\n'.repeat(breaks - 1), i, next);
      i = next;
    } else {
      trace.put(c, i, i + 1);
      i += 1;
    }
  }
}

/** One escape of a double-quoted scalar at `i` (the backslash); returns the offset after it. */
function traceEscape(text: string, i: number, trace: Trace): number {
  const e = text[i + 1] ?? '';
  if (isBreak(e.charCodeAt(0))) {
    // An escaped line break joins the lines: the break and the next line's indentation vanish.
    return skipFold(text, i + 1).next;
  }
  const hex = YAML_HEX_LENGTH[e];
  if (hex !== undefined) {
    const code = parseInt(text.slice(i + 2, i + 2 + hex), 16);
    if (!Number.isInteger(code) || code > 0x10ffff) {
      trace.failed = true;
      return text.length;
    }
    trace.put(String.fromCodePoint(code), i, i + 2 + hex);
    return i + 2 + hex;
  }
  const decoded = YAML_ESCAPES[e];
  if (decoded === undefined) {
    trace.failed = true;
    return text.length;
  }
  trace.put(decoded, i, i + 2);
  return i + 2;
}

/** From a line break at `i`: how many line breaks follow (blank lines included), and where the next content starts. */
function skipFold(text: string, i: number): { breaks: number; next: number } {
  let breaks = 0;
  let j = i;
  while (isBreak(text.charCodeAt(j))) {
    j += text.charCodeAt(j) === 0x0d && text.charCodeAt(j + 1) === 0x0a ? 2 : 1;
    breaks += 1;
    while (text[j] === ' ' || text[j] === '\t') j += 1;
  }
  return { breaks, next: j };
}

/** One line of a block scalar: where it starts and ends, how many spaces indent it, whether it is blank. */
interface BlockLine {
  readonly start: number;
  /** Offset of the line break ending the line, or the text length. */
  readonly end: number;
  /** Offset of the first character after the line break. */
  readonly next: number;
  readonly spaces: number;
  readonly blank: boolean;
}

function lineAt(text: string, start: number): BlockLine {
  let end = start;
  while (end < text.length && !isBreak(text.charCodeAt(end))) end += 1;
  let spaces = 0;
  while (text[start + spaces] === ' ') spaces += 1;
  const next =
    text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : Math.min(end + 1, text.length);
  return { start, end, next, spaces, blank: start + spaces === end };
}

/**
 * A block scalar whose header is at `s`. Its indentation is that of its first non-blank line;
 * a header with an indentation digit depends on the parent's indentation, which is not known
 * here, so the trace fails and callers fall back to the value's start.
 */
function traceBlock(text: string, s: number, trace: Trace): void {
  const folded = text[s] === '>';
  let i = s + 1;
  while (text[i] === '+' || text[i] === '-' || (text[i] !== undefined && /[0-9]/.test(text.charAt(i)))) {
    if (text[i] !== '+' && text[i] !== '-') return void (trace.failed = true);
    i += 1;
  }
  let line = lineAt(text, i); // the rest of the header line: blanks and a comment
  let first = line.next;
  let indent = 0;
  for (let at = first; at < text.length;) {
    const candidate = lineAt(text, at);
    if (!candidate.blank) {
      indent = candidate.spaces;
      break;
    }
    at = candidate.next;
  }
  if (indent === 0) return void (trace.failed = true);
  let pendingBreak = -1; // `>`: the break after the last content line, not yet folded
  let blanks = 0;
  let previousMore = false;
  while (!trace.done && first < text.length) {
    line = lineAt(text, first);
    first = line.next;
    if (line.blank && (folded || line.spaces <= indent)) {
      if (folded) blanks += 1;
      else trace.put('\n', line.end, line.next);
      continue;
    }
    if (line.spaces < indent) break;
    const content = line.start + indent;
    if (folded) {
      const more = text[content] === ' ' || text[content] === '\t';
      if (pendingBreak < 0) trace.put('\n'.repeat(blanks), s, s);
      else if (!more && !previousMore) trace.put(blanks === 0 ? ' ' : '\n'.repeat(blanks), pendingBreak, content);
      else trace.put('\n'.repeat(blanks + 1), pendingBreak, content);
      previousMore = more;
      blanks = 0;
      pendingBreak = line.end;
    }
    for (let k = content; k < line.end && !trace.done; k += 1) trace.put(text.charAt(k), k, k + 1);
    if (!folded) trace.put('\n', line.end, line.next);
  }
  // `>`: the break after the last line, and the blank lines kept by `+`.
  if (folded && pendingBreak >= 0 && !trace.done) trace.put('\n'.repeat(blanks + 1), pendingBreak, pendingBreak + 1);
}

function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
