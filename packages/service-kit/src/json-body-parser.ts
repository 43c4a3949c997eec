import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorMessage } from '@triad/common';
import { kitProblems } from './errors.js';

/** Default most nesting levels (objects + arrays) a JSON body may have. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

export interface JsonBodyParserOptions {
  /** Most nesting levels; default 64. */
  readonly maxDepth?: number;
  /**
   * `parse` (default): the body becomes the parsed value. `text`: the body stays the raw text
   * (depth still checked, syntax not), for routes that hand the text to their own parser so
   * they can report line and column.
   */
  readonly mode?: 'parse' | 'text';
}

/**
 * Scans JSON text without parsing it and returns the deepest nesting reached, stopping as soon
 * as it passes `limit` (so huge inputs cost at most one pass). Brackets inside strings do not count.
 */
export function measureJsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Returns the JSON pointer of the first own `__proto__` key in a parsed value, or undefined.
 * (JSON.parse makes such keys plain properties, but a later merge or spread would turn them into
 * prototype changes.) The value must already be known to be shallow enough to walk.
 */
export function findForbiddenKey(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push([item, `${pointer}/${index}`]));
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) return `${pointer}/__proto__`;
    for (const [key, child] of Object.entries(node)) {
      stack.push([child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    }
  }
  return undefined;
}

/**
 * Parses JSON text the way every Triad route does: depth checked before parsing, syntax errors
 * and `__proto__` keys refused — each as a 400 `ProblemError`. Empty text is `SVC_ERR_BODY_EMPTY`.
 */
export function parseJsonBody(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  if (text.trim() === '')
    throw kitProblems.create('SVC_ERR_BODY_EMPTY', 'A JSON body is required with Content-Type application/json');
  assertDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw kitProblems.create('SVC_ERR_JSON_SYNTAX', errorMessage(error));
  }
  const forbidden = findForbiddenKey(value);
  if (forbidden !== undefined) {
    throw kitProblems.create('SVC_ERR_JSON_FORBIDDEN_KEY', `The key "__proto__" is not accepted (at ${forbidden})`, {
      pointer: forbidden,
    });
  }
  return value;
}

function assertDepth(text: string, maxDepth: number): void {
  const depth = measureJsonDepth(text, maxDepth);
  if (depth > maxDepth) {
    throw kitProblems.create('SVC_ERR_JSON_TOO_DEEP', `The body nests deeper than the limit of ${maxDepth} levels`, {
      maxDepth,
    });
  }
}

/**
 * Installs the `application/json` body parser in `app`'s context (replacing the inherited one).
 * The route's `bodyLimit` applies. Register it with `mode: 'text'` inside a route plugin to keep
 * the raw text there.
 */
export function useJsonBodyParser(app: FastifyInstance, options: JsonBodyParserOptions = {}): void {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const mode = options.mode ?? 'parse';
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request: FastifyRequest, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      try {
        if (mode === 'text') {
          assertDepth(text, maxDepth);
          done(null, text);
        } else {
          done(null, parseJsonBody(text, maxDepth));
        }
      } catch (error) {
        done(error instanceof Error ? error : new Error(errorMessage(error)), undefined);
      }
    },
  );
}
