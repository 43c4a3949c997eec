import { parseExpressionAt, tokenizer, tokTypes, type Expression, type Node, type Super } from 'acorn';
import { EXPRESSION_LIMITS } from './expression-limits.js';
import { describeUnexpectedToken, slashlessRegex } from './syntax-message.js';
import type { ExpressionIssue } from './expression-types.js';

/** `node` without the parentheses around it. */
export function unwrap(node: Expression): Expression;
export function unwrap(node: Expression | Super): Expression | Super;
export function unwrap(node: Expression | Super): Expression | Super {
  let inner = node;
  while (inner.type === 'ParenthesizedExpression') inner = inner.expression;
  return inner;
}

export type ParseOutcome =
  { readonly ok: true; readonly node: Expression } | { readonly ok: false; readonly issue: ExpressionIssue };

// preserveParens: a parenthesised expression keeps its node, so ranges (and the end of the
// whole expression) include the parentheses.
const ACORN_OPTIONS = { ecmaVersion: 2022, sourceType: 'script', preserveParens: true } as const;

function issue(code: string, message: string, offset: number, length: number): ParseOutcome {
  return { ok: false, issue: { code, severity: 'error', message, offset, length } };
}

/**
 * Parses one JavaScript expression with acorn, and checks the size limits (source length, node
 * count, depth). Comments are allowed; anything after the expression is a syntax error. Never
 * throws.
 */
export function parseExpression(source: string): ParseOutcome {
  const { maxSourceLength } = EXPRESSION_LIMITS;
  if (source.length > maxSourceLength) {
    return issue(
      'DT_ERR_EXPR_TOO_LONG',
      `the expression has ${source.length} characters; at most ${maxSourceLength} are allowed`,
      maxSourceLength,
      source.length - maxSourceLength,
    );
  }
  if (source.trim() === '') return issue('DT_ERR_EXPR_EMPTY', 'the expression is empty', 0, source.length);
  let node: Expression;
  try {
    node = parseExpressionAt(source, 0, ACORN_OPTIONS);
  } catch (error) {
    return syntaxIssue(error, source, 0);
  }
  const trailing = trailingToken(source, node.end);
  if (trailing !== undefined) return trailing;
  const tooComplex = checkSize(node);
  return tooComplex ?? { ok: true, node };
}

function syntaxIssue(error: unknown, source: string, base: number): ParseOutcome {
  const at: unknown = error instanceof SyntaxError ? Reflect.get(error, 'pos') : undefined;
  if (error instanceof SyntaxError && typeof at === 'number') {
    const pos = base + at;
    const raisedAt: unknown = Reflect.get(error, 'raisedAt');
    const end = typeof raisedAt === 'number' ? Math.max(base + raisedAt, pos + 1) : pos + 1;
    const message = error.message.replace(/ \(\d+:\d+\)$/, '');
    if (message === 'Unexpected token') {
      // acorn names neither the token nor what it wanted: say both, and hint at a slashless regex.
      const described = describeUnexpectedToken(source, pos);
      const outcome = issue('DT_ERR_EXPR_SYNTAX', described.message, pos, Math.min(end, source.length) - pos);
      if (outcome.ok || described.suggestion === undefined) return outcome;
      return { ok: false, issue: { ...outcome.issue, suggestion: described.suggestion } };
    }
    const regex = slashlessRegex(source);
    return {
      ok: false,
      issue: {
        code: 'DT_ERR_EXPR_SYNTAX',
        severity: 'error',
        message:
          `${message.charAt(0).toLowerCase()}${message.slice(1)}` +
          (regex !== undefined ? `; if this is a regular expression, write it between slashes: ${regex}` : ''),
        offset: pos,
        length: Math.min(end, source.length) - pos,
        ...(regex !== undefined ? { suggestion: regex } : {}),
      },
    };
  }
  // acorn recurses per nesting level; a stack overflow means the input is nested too deeply.
  return issue('DT_ERR_EXPR_TOO_COMPLEX', 'the expression is nested too deeply', 0, source.length);
}

/** An issue for the first token after the expression, if there is one. */
function trailingToken(source: string, end: number): ParseOutcome | undefined {
  const rest = source.slice(end);
  if (rest.trim() === '') return undefined;
  try {
    const token = tokenizer(rest, ACORN_OPTIONS).getToken();
    if (token.type === tokTypes.eof) return undefined;
    return issue(
      'DT_ERR_EXPR_SYNTAX',
      `unexpected '${rest.slice(token.start, token.end)}' after the end of the expression; an expression is one ` +
        `value (no ';' or second statement)`,
      end + token.start,
      token.end - token.start,
    );
  } catch (error) {
    return syntaxIssue(error, source, end);
  }
}

/** Counts nodes and depth; an issue at the first node past a limit. */
function checkSize(root: Node): ParseOutcome | undefined {
  const { maxNodes, maxDepth } = EXPRESSION_LIMITS;
  let count = 0;
  let failure: ParseOutcome | undefined;
  const visit = (node: Node, depth: number): void => {
    if (failure !== undefined) return;
    count++;
    if (count > maxNodes) {
      failure = issue(
        'DT_ERR_EXPR_TOO_COMPLEX',
        `the expression has more than ${maxNodes} parts; split it over several datapoints`,
        node.start,
        node.end - node.start,
      );
      return;
    }
    if (depth > maxDepth) {
      failure = issue(
        'DT_ERR_EXPR_TOO_COMPLEX',
        `the expression is nested more than ${maxDepth} levels deep`,
        node.start,
        node.end - node.start,
      );
      return;
    }
    for (const key in node) {
      if (key === 'value' || key === 'regex') continue;
      const value: unknown = Reflect.get(node, key);
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visit(child, depth + 1);
      } else if (isNode(value)) {
        visit(value, depth + 1);
      }
    }
  };
  visit(root, 1);
  return failure;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}
