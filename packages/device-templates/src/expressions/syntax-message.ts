import { tokenizer, tokTypes, type Token } from 'acorn';

/** A syntax error message that names the token and the expected form, and a fix when one is clear. */
export interface SyntaxMessage {
  readonly message: string;
  readonly suggestion?: string;
}

const TOKENIZER_OPTIONS = { ecmaVersion: 2022, sourceType: 'script' } as const;

const CLOSERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '${': '}' };

// After these tokens an operand (a value) must follow.
const VALUE_EXPECTED_AFTER = new Set([
  tokTypes.parenL,
  tokTypes.bracketL,
  tokTypes.braceL,
  tokTypes.comma,
  tokTypes.question,
  tokTypes.colon,
  tokTypes.prefix,
  tokTypes.plusMin,
  tokTypes.modulo,
  tokTypes.star,
  tokTypes.slash,
  tokTypes.starstar,
  tokTypes.logicalOR,
  tokTypes.logicalAND,
  tokTypes.bitwiseOR,
  tokTypes.bitwiseXOR,
  tokTypes.bitwiseAND,
  tokTypes.equality,
  tokTypes.relational,
  tokTypes.bitShift,
  tokTypes.coalesce,
  tokTypes.eq,
  tokTypes.assign,
  tokTypes.dollarBraceL,
]);

const OPERATOR_OR_END = 'an operator (such as +, ===, &&, ?) or the end of the expression';
const VALUE = "a value (a number, a 'string', datapoint.value, datapoints.<id>.value, a /regex/ or a ( ... ) group)";

/**
 * Explains acorn's bare "Unexpected token" at `pos` of `source`: which token (or the end of the
 * expression) was found, and what the grammar expected there, judged from the token before it
 * and the brackets still open. A regular expression written without its slashes (such as the
 * published NetinDS schema's example `(^(5|[5-9]\d*)\.(3|[3-9]\d*)\.(0|[1-9]\d*)?$).test(datapoint.value)`)
 * gets a hint and the expression rewritten with slashes as the suggestion.
 */
export function describeUnexpectedToken(source: string, pos: number): SyntaxMessage {
  const tokens = tokensBefore(source, pos);
  const previous = tokens[tokens.length - 1];
  const atEnd = source.slice(pos).trim() === '';
  const column = pos + 1;
  const found = atEnd
    ? `the expression ends at column ${column}`
    : `unexpected '${tokenTextAt(source, pos)}' at column ${column}`;
  const regex = slashlessRegex(source);
  if (regex !== undefined) {
    return {
      message:
        `${found}: this looks like a regular expression written without its ` +
        `slashes; write it as a regex literal between / and /, e.g. ${regex}`,
      suggestion: regex,
    };
  }
  const open = openBrackets(tokens);
  let expected: string;
  if (previous === undefined) expected = VALUE;
  else if (previous.type === tokTypes.dot || previous.type === tokTypes.questionDot)
    expected = `a property or method name after '${tokenText(source, previous)}'`;
  else if (VALUE_EXPECTED_AFTER.has(previous.type)) expected = `${VALUE} after '${tokenText(source, previous)}'`;
  else if (atEnd && unansweredQuestion(tokens))
    expected = `':' and the value to use when the condition before '?' is false`;
  else if (atEnd && open.length > 0) {
    const last = open[open.length - 1]!;
    expected = `'${CLOSERS[last.text] ?? ')'}' to close the '${last.text}' at column ${last.start + 1}`;
  } else expected = `${OPERATOR_OR_END} after '${tokenText(source, previous)}'`;
  return { message: `${found}; expected ${expected}` };
}

function tokensBefore(source: string, pos: number): Token[] {
  const out: Token[] = [];
  try {
    for (const token of tokenizer(source.slice(0, pos), TOKENIZER_OPTIONS)) out.push(token);
  } catch {
    // The prefix itself does not tokenise (an unterminated string, say): judge from what was read.
  }
  return out;
}

function tokenTextAt(source: string, pos: number): string {
  try {
    const token = tokenizer(source.slice(pos), TOKENIZER_OPTIONS).getToken();
    if (token.end > token.start) return source.slice(pos + token.start, pos + token.end);
  } catch {
    // Not a token acorn can read: show the character.
  }
  return String.fromCodePoint(source.codePointAt(pos) ?? 0x3f);
}

function tokenText(source: string, token: Token): string {
  return source.slice(token.start, token.end);
}

function unansweredQuestion(tokens: readonly Token[]): boolean {
  let open = 0;
  for (const token of tokens) {
    if (token.type === tokTypes.question) open++;
    else if (token.type === tokTypes.colon && open > 0) open--;
  }
  return open > 0;
}

function openBrackets(tokens: readonly Token[]): { text: string; start: number }[] {
  const stack: { text: string; start: number }[] = [];
  for (const token of tokens) {
    const label = token.type.label;
    if (label === '(' || label === '[' || label === '{' || label === '${')
      stack.push({ text: label, start: token.start });
    else if (label === ')' || label === ']' || label === '}') stack.pop();
  }
  return stack;
}

// A receiver of .test( / .exec( / .match( written as a pattern: anchors, classes, escapes.
const REGEX_SIGNS = /^\^|\$$|\\[dDwWsSbB.]|\[[^\]]*\]|\(\?[:=!<]/;

/**
 * `pattern.test(x)` or `(pattern).test(x)` whose pattern is not a regex literal but reads like one:
 * the same call with the pattern between slashes. Undefined when the expression does not look so.
 */
export function slashlessRegex(source: string): string | undefined {
  const trimmed = source.trim();
  const call = /^(.*?)\s*\.\s*(test|exec)\s*\((.*)\)$/s.exec(trimmed);
  if (call === null) {
    // A bare pattern: starts with an anchor and has no call at all.
    return /^\^[^\s]*\$?$/.test(trimmed) ? `/${trimmed}/.test(datapoint.value)` : undefined;
  }
  let pattern = call[1]!;
  if (pattern.startsWith('(') && pattern.endsWith(')') && balanced(pattern.slice(1, -1)))
    pattern = pattern.slice(1, -1);
  if (pattern.startsWith('/') || !REGEX_SIGNS.test(pattern)) return undefined;
  return `/${pattern.replace(/\//g, '\\/')}/.${call[2]!}(${call[3]!})`;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
