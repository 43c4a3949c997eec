import { readEscape } from './regex-escape.js';
import {
  alternationCost,
  ASSERTION,
  ATOM,
  EMPTY,
  maxNativeLength,
  repetitionCost,
  sequenceCost,
  type Cost,
} from './regex-cost.js';
import type { RegexIssue } from './regex-issue.js';

/**
 * Reads a regex literal's pattern and decides how it may run.
 *
 * RE2 is the reference: every pattern must compile on it, and its meaning is the language's
 * meaning. RE2 through WebAssembly costs microseconds per call, so a pattern may also run on
 * V8's native engine when (1) every construct in it means the same on both engines, or is
 * rewritten so that it does (`\s` → `[\t\n\f\r ]`, `.` → `[^\n]`), and (2) a conservative bound
 * of V8's backtracking work stays within `nativeRegexStepBudget` for the input's length. The
 * bound counts the paths a backtracking matcher can explore: every alternation and optional part
 * multiplies them by its choices, every unbounded quantifier by at most (n + 1) (see
 * regex-cost.ts); a quantifier repeated
 * over a group that itself holds a quantifier or an alternation (`(a+)+`, `(a|b)*`, `(.*a){20}`)
 * is never bounded that way and always runs on RE2. See docs/expressions.md ("Regular expressions").
 */

export interface RegexPlan {
  /** Pattern for V8's `RegExp` (with `nativeFlags`) meaning what RE2 means; undefined: RE2 only. */
  readonly nativeSource: string | undefined;
  readonly nativeFlags: string;
  /** Longest input the native engine may take (Infinity: any); -1 when RE2 only. */
  readonly nativeMaxLength: number;
  /** Why the pattern runs on RE2 only (for tests and diagnostics). */
  readonly re2Reason: string | undefined;
}

export interface RegexAnalysis {
  readonly issues: readonly RegexIssue[];
  readonly plan: RegexPlan;
}

const ALLOWED_FLAGS = 'imsu';

/** Analyses `pattern` (as written between the slashes) with its `flags`. Never throws. */
export function analyseRegex(pattern: string, flags: string): RegexAnalysis {
  const reader = new PatternReader(pattern, flags);
  const issues: RegexIssue[] = [];
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    if (ALLOWED_FLAGS.includes(flag)) continue;
    issues.push({
      code: 'DT_ERR_EXPR_REGEX_FLAG',
      message:
        flag === 'g' || flag === 'y'
          ? `the ${flag} flag makes test() remember where it stopped, so results would depend on earlier ` +
            `evaluations; remove it`
          : `the ${flag} flag is not supported; use i, m, s or u`,
      offset: pattern.length + 1 + i,
      length: 1,
    });
  }
  const cost = reader.run();
  issues.push(...reader.issues);
  return { issues, plan: reader.plan(cost) };
}

class PatternReader {
  readonly issues: RegexIssue[] = [];
  #pos = 0;
  #out = '';
  #re2Reason: string | undefined;
  #anchored = true;
  readonly #ignoreCase: boolean;
  readonly #dotAll: boolean;
  readonly #unicode: boolean;

  constructor(
    private readonly pattern: string,
    flags: string,
  ) {
    this.#ignoreCase = flags.includes('i');
    this.#dotAll = flags.includes('s');
    this.#unicode = flags.includes('u');
    if (flags.includes('m')) this.re2Only('the m flag: line anchors differ between engines');
  }

  run(): Cost {
    return this.#disjunction(true);
  }

  plan(cost: Cost): RegexPlan {
    const nativeFlags = 'u' + (this.#ignoreCase ? 'i' : '') + (this.#dotAll ? 's' : '');
    if (this.#re2Reason === undefined && this.issues.length === 0) {
      const nativeMaxLength = maxNativeLength(cost, this.#anchored);
      if (nativeMaxLength >= 0) return { nativeSource: this.#out, nativeFlags, nativeMaxLength, re2Reason: undefined };
      return {
        nativeSource: undefined,
        nativeFlags,
        nativeMaxLength: -1,
        re2Reason: 'its backtracking bound exceeds the budget on any input',
      };
    }
    return { nativeSource: undefined, nativeFlags, nativeMaxLength: -1, re2Reason: this.#re2Reason ?? 'it has errors' };
  }

  private re2Only(reason: string): void {
    this.#re2Reason ??= reason;
  }

  private issue(code: RegexIssue['code'], message: string, offset: number, length: number): void {
    this.issues.push({ code, message, offset, length });
  }

  #disjunction(top: boolean): Cost {
    const alternatives: Cost[] = [];
    for (;;) {
      const start = this.#pos;
      alternatives.push(this.#alternative());
      if (top && this.pattern[start] !== '^') this.#anchored = false;
      if (this.pattern[this.#pos] !== '|') break;
      this.#out += '|';
      this.#pos++;
    }
    return alternationCost(alternatives);
  }

  #alternative(): Cost {
    let cost = EMPTY;
    while (this.#pos < this.pattern.length && this.pattern[this.#pos] !== '|' && this.pattern[this.#pos] !== ')') {
      cost = sequenceCost(cost, this.#quantified(this.#atom()));
    }
    return cost;
  }

  #atom(): Cost {
    const p = this.pattern;
    const start = this.#pos;
    const c = p[start]!;
    switch (c) {
      case '^':
      case '$':
        this.#out += c;
        this.#pos++;
        return ASSERTION;
      case '.':
        this.#out += this.#dotAll ? '.' : '[^\\n]';
        this.#pos++;
        return ATOM;
      case '\\':
        return this.#escape(false);
      case '[':
        return this.#characterClass();
      case '(':
        return this.#group();
      case '{':
      case '}':
      case ']':
        // A literal brace or bracket (legal only without the u flag): escape it for V8's u mode.
        this.#out += '\\' + c;
        this.#pos++;
        return ATOM;
      default: {
        const codePoint = p.codePointAt(start)!;
        const text = String.fromCodePoint(codePoint);
        this.#out += text;
        this.#pos += text.length;
        return ATOM;
      }
    }
  }

  #group(): Cost {
    const p = this.pattern;
    const start = this.#pos;
    if (
      p.startsWith('(?=', start) ||
      p.startsWith('(?!', start) ||
      p.startsWith('(?<=', start) ||
      p.startsWith('(?<!', start)
    ) {
      const behind = p[start + 2] === '<';
      this.issue(
        'DT_ERR_EXPR_REGEX_UNSUPPORTED',
        `look${behind ? 'behind' : 'ahead'} assertions cannot run in linear time (RE2 has none); match the text ` +
          `itself instead`,
        start,
        behind ? 4 : 3,
      );
      this.re2Only('lookaround');
      this.#pos += behind ? 4 : 3;
    } else if (p.startsWith('(?:', start)) {
      this.#pos += 3;
    } else if (p.startsWith('(?<', start)) {
      const close = p.indexOf('>', start);
      this.#pos = close < 0 ? p.length : close + 1;
    } else {
      this.#pos += 1;
    }
    // Captures do not matter to test(): every group becomes non-capturing for V8.
    this.#out += '(?:';
    const inner = this.#disjunction(false);
    if (p[this.#pos] === ')') this.#pos++;
    this.#out += ')';
    return inner;
  }

  #quantified(atom: Cost): Cost {
    const p = this.pattern;
    const start = this.#pos;
    let min: number;
    let max: number;
    const c = p[start];
    if (c === '*' || c === '+' || c === '?') {
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
      this.#pos++;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(start, start + 24));
      if (match === null) return atom;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.#pos += match[0].length;
    } else {
      return atom;
    }
    if (p[this.#pos] === '?') this.#pos++;
    this.#out += p.slice(start, this.#pos);
    const cost = repetitionCost(atom, min, max);
    if (cost !== undefined) return cost;
    this.re2Only('a repeated group holds a quantifier or an alternation');
    return { ...atom, branching: true };
  }

  #characterClass(): Cost {
    const p = this.pattern;
    this.#pos++;
    this.#out += '[';
    if (p[this.#pos] === '^') {
      this.#out += '^';
      this.#pos++;
    }
    // JavaScript reads [] as a class matching nothing, RE2 reads ] there as a character.
    if (p[this.#pos] === ']') this.re2Only('an empty character class');
    while (this.#pos < p.length && p[this.#pos] !== ']') {
      const c = p[this.#pos]!;
      if (c === '\\') {
        this.#escape(true);
      } else {
        // RE2 reads [:alpha:] inside a class as a POSIX class; JavaScript reads characters.
        if (c === '[') this.re2Only('a [ inside a character class');
        const text = String.fromCodePoint(p.codePointAt(this.#pos)!);
        this.#out += text;
        this.#pos += text.length;
      }
    }
    this.#pos++;
    this.#out += ']';
    return ATOM;
  }

  /** Reads `\x` at the cursor, inside a class or not. */
  #escape(inClass: boolean): Cost {
    const escape = readEscape(this.pattern, this.#pos, inClass, this.#ignoreCase, this.#unicode);
    if (escape.issue !== undefined) this.issue(escape.issue.code, escape.issue.message, this.#pos, escape.issue.length);
    if (escape.re2Reason !== undefined) this.re2Only(escape.re2Reason);
    this.#out += escape.out;
    this.#pos += escape.length;
    return escape.assertion ? ASSERTION : ATOM;
  }
}
