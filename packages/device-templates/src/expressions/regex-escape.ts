import type { RegexIssue } from './regex-issue.js';

/** What one `\x` escape of a pattern is, and how V8 must spell it to mean what RE2 means. */
export interface EscapeReading {
  /** Code units the escape takes, from the backslash. */
  readonly length: number;
  /** The escape for V8's u mode (RE2's meaning). */
  readonly out: string;
  /** `\b` / `\B` outside a class: matches no character. */
  readonly assertion: boolean;
  /** Set when the two engines cannot be made to agree: the pattern then runs on RE2 only. */
  readonly re2Reason?: string;
  /** Set when the escape is refused (its offset is the backslash). */
  readonly issue?: { readonly code: RegexIssue['code']; readonly message: string; readonly length: number };
}

const SYNTAX_CHARS = '^$\\.*+?()[]{}|/';
// RE2's \s is ASCII whitespace without \v; JavaScript's adds \v and the Unicode spaces.
export const RE2_SPACE = '\\t\\n\\f\\r ';

const plain = (length: number, out: string): EscapeReading => ({ length, out, assertion: false });

/**
 * Reads the escape at `start` (a backslash) of `pattern`. Letter escapes outside the ones both
 * engines share are refused (`\z` is end of text to RE2, `z` to JavaScript); `\1`-`\9` and `\k`
 * are backreferences, which RE2 has not.
 */
export function readEscape(
  pattern: string,
  start: number,
  inClass: boolean,
  ignoreCase: boolean,
  unicode: boolean,
): EscapeReading {
  const c = pattern[start + 1];
  if (c === undefined) return plain(1, '\\\\');
  switch (c) {
    case 'b':
    case 'B':
      return {
        length: 2,
        out: '\\' + c,
        assertion: !inClass,
        ...(inClass ? { re2Reason: '[\\b]' } : ignoreCase ? { re2Reason: '\\b with the i flag' } : {}),
      };
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'r':
    case 'f':
    case 'v':
      return plain(2, '\\' + c);
    case 's':
      return plain(2, inClass ? RE2_SPACE : `[${RE2_SPACE}]`);
    case 'S':
      return { ...plain(2, `[^${RE2_SPACE}]`), ...(inClass ? { re2Reason: '\\S inside a character class' } : {}) };
    case '0':
      if (/[0-9]/.test(pattern[start + 2] ?? '')) {
        return {
          ...plain(2, '\\0'),
          issue: {
            code: 'DT_ERR_EXPR_REGEX_ESCAPE',
            message: 'octal escapes are not supported; write \\x followed by two hex digits',
            length: 3,
          },
        };
      }
      return plain(2, '\\0');
    case 'x':
    case 'u':
    case 'c':
    case 'p':
    case 'P':
      return codeEscape(pattern, start, c, unicode);
    case 'k':
      return {
        ...plain(2, ''),
        issue: {
          code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED',
          message: 'backreferences cannot run in linear time (RE2 has none)',
          length: 2,
        },
      };
  }
  if (c >= '1' && c <= '9') {
    return {
      ...plain(2, ''),
      issue: {
        code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED',
        message: `\\${c} is a backreference, which cannot run in linear time (RE2 has none)`,
        length: 2,
      },
    };
  }
  if (/[A-Za-z]/.test(c)) {
    return {
      ...plain(2, ''),
      issue: {
        code: 'DT_ERR_EXPR_REGEX_ESCAPE',
        message: `\\${c} means different things in JavaScript and RE2; write ${c} without the backslash`,
        length: 2,
      },
    };
  }
  if (c.charCodeAt(0) >= 0x80) return { ...plain(2, c), re2Reason: 'an escaped non-ASCII character' };
  // Escaped punctuation is the character itself; V8's u mode accepts the escape only for syntax
  // characters (and - inside a class).
  return plain(2, SYNTAX_CHARS.includes(c) || (inClass && c === '-') ? '\\' + c : c);
}

/** `\xHH`, `\uHHHH`, `\u{H...}`, `\cX`, `\p{...}`: kept as written when both engines agree. */
function codeEscape(pattern: string, start: number, c: string, unicode: boolean): EscapeReading {
  const rest = pattern.slice(start + 2, start + 40);
  let match: RegExpExecArray | null = null;
  let ambiguous = false;
  let re2Reason: string | undefined;
  if (c === 'x') match = /^[0-9A-Fa-f]{2}/.exec(rest);
  else if (c === 'u') {
    match = /^[0-9A-Fa-f]{4}/.exec(rest);
    if (match === null && rest.startsWith('{')) {
      match = /^\{[0-9A-Fa-f]{1,6}\}/.exec(rest);
      ambiguous = !unicode;
    }
  } else if (c === 'c') match = /^[A-Za-z]/.exec(rest);
  else {
    match = /^\{[^}]*\}/.exec(rest);
    ambiguous = !unicode;
    re2Reason = 'a Unicode property escape';
  }
  const length = 2 + (match?.[0].length ?? 0);
  if (match === null || ambiguous) {
    const message =
      c === 'p' || c === 'P' || c === 'u'
        ? `\\${c}{...} means something else without the u flag; add the u flag`
        : `\\${c} is incomplete; JavaScript and RE2 read it differently`;
    return { ...plain(length, ''), issue: { code: 'DT_ERR_EXPR_REGEX_ESCAPE', message, length } };
  }
  return { ...plain(length, pattern.slice(start, start + length)), ...(re2Reason !== undefined ? { re2Reason } : {}) };
}
