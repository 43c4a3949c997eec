import { describeChar, formatPlace } from './load-failure.js';
import type { LineIndex } from './line-index.js';

/** The first syntax error of a JSON text: where it is and a message a person can act on. */
export interface JsonSyntaxFault {
  readonly offset: number;
  readonly message: string;
}

interface OpenContainer {
  readonly kind: 0x7b | 0x5b; // '{' or '['
  readonly at: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Finds the first place where `text` breaks the JSON grammar (RFC 8259) and explains it, e.g.
 * `Unexpected ',' at 4:17: expected a value`. Returns `undefined` for well-formed JSON.
 *
 * Only run after `JSON.parse` failed: it is written for clear messages, not for speed.
 */
export function findJsonSyntaxError(text: string, lines: LineIndex): JsonSyntaxFault | undefined {
  return new JsonGrammarCheck(text, lines).run();
}

class JsonGrammarCheck {
  readonly #text: string;
  readonly #lines: LineIndex;
  #p = 0;
  readonly #open: OpenContainer[] = [];

  constructor(text: string, lines: LineIndex) {
    this.#text = text;
    this.#lines = lines;
  }

  run(): JsonSyntaxFault | undefined {
    const text = this.#text;
    // Each turn reads one value, then the punctuation after it, until the stack empties.
    for (;;) {
      const fault = this.#value();
      if (fault !== undefined) return fault;
      for (;;) {
        this.#skipSpace();
        const top = this.#open[this.#open.length - 1];
        if (top === undefined) {
          if (this.#p >= text.length) return undefined;
          return this.#unexpected(
            text.charCodeAt(this.#p) === 0x2f
              ? 'expected the end of the input; JSON does not allow comments'
              : 'expected the end of the input: a JSON file holds exactly one value',
          );
        }
        const c = text.charCodeAt(this.#p);
        const close = top.kind === 0x7b ? 0x7d : 0x5d;
        if (c === close) {
          this.#open.pop();
          this.#p += 1;
          continue;
        }
        if (c === 0x2c) {
          const comma = this.#p;
          this.#p += 1;
          this.#skipSpace();
          const next = text.charCodeAt(this.#p);
          if (next === 0x7d || next === 0x5d) {
            return this.#unexpected(
              `expected a ${top.kind === 0x7b ? 'property name' : 'value'} after ','; remove the trailing comma at ` +
                `${this.#place(comma)}`,
            );
          }
          if (top.kind === 0x7b) {
            const fault = this.#key();
            if (fault !== undefined) return fault;
          }
          break;
        }
        const what =
          top.kind === 0x7b
            ? "expected ',' or '}' after a property value"
            : "expected ',' or ']' after an array element";
        if (this.#p >= text.length) {
          return this.#unexpected(
            `${what}; the ${top.kind === 0x7b ? 'object' : 'array'} opened at ${this.#place(top.at)} is not closed`,
          );
        }
        return this.#unexpected(
          c === QUOTE || c === 0x7b || c === 0x5b ? `${what} (a comma is probably missing)` : what,
        );
      }
    }
  }

  /**
   * Reads one value. An opened container is pushed and the cursor left on its first value (an
   * object's first key is read), so nesting is a loop, not recursion, however deep the input.
   */
  #value(): JsonSyntaxFault | undefined {
    const text = this.#text;
    for (;;) {
      this.#skipSpace();
      const c = text.charCodeAt(this.#p);
      if (c === 0x7b || c === 0x5b) {
        this.#open.push({ kind: c, at: this.#p });
        this.#p += 1;
        this.#skipSpace();
        if (text.charCodeAt(this.#p) === (c === 0x7b ? 0x7d : 0x5d)) return undefined; // empty; the caller closes it
        if (c === 0x7b) {
          const fault = this.#key();
          if (fault !== undefined) return fault;
        }
        continue;
      }
      if (c === QUOTE) return this.#string();
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.#number();
      for (const literal of ['true', 'false', 'null']) {
        if (text.startsWith(literal, this.#p) && !isWordChar(text.charCodeAt(this.#p + literal.length))) {
          this.#p += literal.length;
          return undefined;
        }
      }
      return this.#unexpected(this.#expectedValueHint());
    }
  }

  #expectedValueHint(): string {
    const text = this.#text;
    const c = text.charCodeAt(this.#p);
    if (this.#p >= text.length) {
      const top = this.#open[this.#open.length - 1];
      return top === undefined
        ? 'expected a value'
        : `expected a value; the ${top.kind === 0x7b ? 'object' : 'array'} opened at ${this.#place(top.at)} is not ` +
            `closed`;
    }
    if (c === 0x27) return 'expected a value; JSON strings are written in double quotes ("..."), not single quotes';
    if (c === 0x2f) return 'expected a value; JSON does not allow comments';
    const word = this.#word();
    if (word === 'NaN' || word === 'Infinity' || word === 'undefined')
      return `expected a value; JSON has no ${word}: use null or a number`;
    if (/^(True|False|TRUE|FALSE|Null|NULL|None|nil)$/.test(word))
      return `expected a value; JSON literals are lower case: true, false, null`;
    if (word !== '') return 'expected a value; text must be written as a string in double quotes';
    return 'expected a value';
  }

  /** Reads `"name"` and the `:` after it; the value is read by the caller. */
  #key(): JsonSyntaxFault | undefined {
    this.#skipSpace();
    const text = this.#text;
    const c = text.charCodeAt(this.#p);
    if (c !== QUOTE) {
      if (c === 0x27)
        return this.#unexpected(
          'expected a property name; JSON property names are written in double quotes, not single quotes',
        );
      if (c === 0x2f) return this.#unexpected('expected a property name; JSON does not allow comments');
      if (this.#word() !== '') return this.#unexpected(`expected a property name in double quotes ("${this.#word()}")`);
      return this.#unexpected(
        this.#p >= text.length
          ? `expected a property name; the object opened at ` +
              `${this.#place(this.#open[this.#open.length - 1]?.at ?? 0)} is not closed`
          : 'expected a property name in double quotes',
      );
    }
    const keyAt = this.#p;
    const fault = this.#string();
    if (fault !== undefined) return fault;
    this.#skipSpace();
    if (text.charCodeAt(this.#p) !== 0x3a) {
      return this.#unexpected(
        `expected ':' after the property name ${text.slice(keyAt, Math.min(this.#p, keyAt + 60)).trim()}`,
      );
    }
    this.#p += 1;
    return undefined;
  }

  #string(): JsonSyntaxFault | undefined {
    const text = this.#text;
    const start = this.#p;
    let p = start + 1;
    while (p < text.length) {
      const c = text.charCodeAt(p);
      if (c === QUOTE) {
        this.#p = p + 1;
        return undefined;
      }
      if (c === BACKSLASH) {
        const e = text.charCodeAt(p + 1);
        if (e === 0x75) {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(p + 2, p + 6))) {
            return this.#fault(
              p,
              `Invalid escape ${JSON.stringify(text.slice(p, p + 6))} at ${this.#place(p)}: \\u must be followed by ` +
                `4 hexadecimal digits`,
            );
          }
          p += 6;
          continue;
        }
        if ('"\\/bfnrt'.includes(String.fromCharCode(e)) && p + 1 < text.length) {
          p += 2;
          continue;
        }
        return this.#fault(
          p,
          `Invalid escape '\\${text.charAt(p + 1)}' at ${this.#place(p)}: allowed escapes are \\" \\\\ \\/ \\b \\f ` +
            `\\n \\r \\t \\uXXXX; write a backslash as \\\\`,
        );
      }
      if (c < 0x20) {
        const hint =
          c === 0x0a || c === 0x0d
            ? 'a string cannot span lines: close it before the line break or write \\n'
            : `escape it as \\u${c.toString(16).padStart(4, '0')}`;
        return this.#fault(
          p,
          `Unexpected ${describeChar(text.charAt(p))} in the string starting at ${this.#place(start)} (at ` +
            `${this.#place(p)}): ${hint}`,
        );
      }
      p += 1;
    }
    return this.#fault(start, `Unterminated string starting at ${this.#place(start)}: add the closing '"'`);
  }

  #number(): JsonSyntaxFault | undefined {
    const text = this.#text;
    const start = this.#p;
    const match = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    match.lastIndex = start;
    const found = match.exec(text);
    const end = found === null ? start : start + found[0].length;
    if (found === null || found[0] === '-' || isWordChar(text.charCodeAt(end)) || text.charCodeAt(end) === 0x2e) {
      let stop = start;
      while (stop < text.length && /[0-9A-Za-z.+\-_]/.test(text.charAt(stop))) stop += 1;
      const written = text.slice(start, Math.max(stop, start + 1));
      return this.#fault(
        start,
        `Invalid number '${written}' at ${this.#place(start)}: JSON numbers are written like 12, -3.5 or 1e-6 (no ` +
          `leading zeros, leading '+', trailing '.', hex or NaN); quote it if it is text`,
      );
    }
    this.#p = end;
    return undefined;
  }

  /** The identifier-like word at the cursor, at most 20 characters. */
  #word(): string {
    return /^[A-Za-z_$][A-Za-z0-9_$]{0,19}/.exec(this.#text.slice(this.#p, this.#p + 20))?.[0] ?? '';
  }

  #skipSpace(): void {
    const text = this.#text;
    let p = this.#p;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p += 1;
      else break;
    }
    this.#p = p;
  }

  #unexpected(expected: string): JsonSyntaxFault {
    const text = this.#text;
    const word = this.#word();
    const found =
      this.#p >= text.length
        ? 'end of input'
        : word !== ''
          ? `'${word}'`
          : describeChar(String.fromCodePoint(text.codePointAt(this.#p) ?? 0));
    return this.#fault(this.#p, `Unexpected ${found} at ${this.#place(this.#p)}: ${expected}`);
  }

  #fault(offset: number, message: string): JsonSyntaxFault {
    return { offset, message: message.endsWith('.') ? message : message + '.' };
  }

  #place(offset: number): string {
    return formatPlace(this.#lines.positionAt(offset));
  }
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
}
