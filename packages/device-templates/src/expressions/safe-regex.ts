import { createRequire } from 'node:module';
import { errorMessage } from '@triad/common';
import { analyseRegex, type RegexPlan } from './analyse-regex.js';
import type { RegexIssue } from './regex-issue.js';
import { ExpressionEvaluationError } from './expression-evaluation-error.js';

/** The part of re2-wasm this module calls. */
interface Re2Instance {
  test(input: string): boolean;
}
interface Re2Module {
  readonly RE2: new (pattern: string, flags: string) => Re2Instance;
}

let re2Module: Re2Module | undefined;

// re2-wasm (CommonJS) takes tens of milliseconds to load: it is required when the first regex
// literal is compiled, not with the package.
function loadRe2(): Re2Module {
  re2Module ??= createRequire(import.meta.url)('re2-wasm') as Re2Module;
  return re2Module;
}

// A compiled RE2 pattern lives in WebAssembly memory, which the JS garbage collector does not
// see; free it when the last expression holding it is collected.
const freeWasmPattern = new FinalizationRegistry<{ delete(): void }>((wrapper) => wrapper.delete());

const re2Cache = new Map<string, Re2Instance | string>();
const MAX_CACHED = 512;

/** A compiled RE2 pattern, or RE2's reason for refusing it. Cached per pattern and flags. */
function compileRe2(pattern: string, flags: string): Re2Instance | string {
  const key = `${flags}/${pattern}`;
  const cached = re2Cache.get(key);
  if (cached !== undefined) return cached;
  let compiled: Re2Instance | string;
  try {
    compiled = new (loadRe2().RE2)(pattern, flags);
    const wrapper = (compiled as { wrapper?: { delete?: unknown } }).wrapper;
    if (wrapper !== undefined && typeof wrapper.delete === 'function') {
      freeWasmPattern.register(compiled, wrapper as { delete(): void });
    }
  } catch (error) {
    const message = errorMessage(error);
    const prefix = `Invalid regular expression: /${pattern}/${flags}: `;
    compiled = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  }
  if (re2Cache.size >= MAX_CACHED) re2Cache.clear();
  re2Cache.set(key, compiled);
  return compiled;
}

/**
 * A regex literal ready to test strings in linear time: on V8's engine while the input is short
 * enough for the pattern's backtracking bound (`plan.nativeMaxLength`), on RE2 otherwise.
 * `test` never throws anything but an `ExpressionEvaluationError`.
 */
export class SafeRegex {
  readonly #native: RegExp | undefined;
  readonly #nativeMaxLength: number;
  readonly #re2: Re2Instance;

  constructor(
    readonly pattern: string,
    readonly flags: string,
    readonly plan: RegexPlan,
    re2: Re2Instance,
    native: RegExp | undefined,
  ) {
    this.#re2 = re2;
    this.#native = native;
    this.#nativeMaxLength = native === undefined ? -1 : plan.nativeMaxLength;
  }

  /** Which engine runs an input of this length (for tests and diagnostics). */
  engineFor(length: number): 'native' | 're2' {
    return length <= this.#nativeMaxLength ? 'native' : 're2';
  }

  test(input: string): boolean {
    if (input.length <= this.#nativeMaxLength) return this.#native!.test(input);
    return this.#testRe2(input);
  }

  #testRe2(input: string): boolean {
    try {
      return this.#re2.test(input);
    } catch {
      throw new ExpressionEvaluationError(
        'DT_ERR_EVAL_STRING_TOO_LONG',
        `the regular expression engine could not take the input (${input.length} characters)`,
      );
    }
  }
}

export type RegexCompileResult =
  { readonly ok: true; readonly regex: SafeRegex } | { readonly ok: false; readonly issues: readonly RegexIssue[] };

/**
 * Checks and compiles a regex literal: flags, constructs both engines must agree on, then RE2
 * itself (which must accept every pattern). Issue offsets count from the first pattern character.
 */
export function compileRegex(pattern: string, flags: string): RegexCompileResult {
  const { issues, plan } = analyseRegex(pattern, flags);
  if (issues.length > 0) return { ok: false, issues };
  const re2Flags = flags.includes('u') ? flags : flags + 'u';
  const re2 = compileRe2(pattern, re2Flags);
  if (typeof re2 === 'string') {
    return {
      ok: false,
      issues: [
        {
          code: 'DT_ERR_EXPR_REGEX_UNSUPPORTED',
          message: `RE2 cannot run this pattern: ${re2}`,
          offset: 0,
          length: pattern.length,
        },
      ],
    };
  }
  let native: RegExp | undefined;
  if (plan.nativeSource !== undefined) {
    try {
      native = new RegExp(plan.nativeSource, plan.nativeFlags);
    } catch {
      native = undefined;
    }
  }
  return { ok: true, regex: new SafeRegex(pattern, flags, plan, re2, native) };
}
