import { errorMessage } from '@triad/common';
import { RE2 } from 're2-wasm';

/** The one method of a compiled pattern the matcher calls. */
export interface CompiledPattern {
  test(input: string): boolean;
}

/** Where refused patterns are reported (a pino logger fits). */
export interface PatternLog {
  warn(object: object, message: string): void;
}

/** Most patterns kept compiled (and refused ones remembered) at once. */
export const PATTERN_CACHE_SIZE = 4096;

// A compiled RE2 pattern lives in WebAssembly memory, which the JS garbage collector does not
// see; its wrapper is freed once the JS object holding it has been collected (after eviction
// here and after any caller still holding it is done).
const freeWasmPattern = new FinalizationRegistry<{ delete(): void }>((wrapper) => wrapper.delete());

/** RE2 with the Unicode flag, its WebAssembly memory freed when the object is collected. */
function compileRe2(pattern: string): CompiledPattern {
  const compiled = new RE2(pattern, 'u');
  const wrapper = (compiled as unknown as { wrapper?: { delete?: unknown } }).wrapper;
  if (wrapper !== undefined && typeof wrapper.delete === 'function')
    freeWasmPattern.register(compiled, wrapper as { delete(): void });
  return compiled;
}

/**
 * Compiles user patterns with RE2 (linear-time matching: no input can make a pattern run
 * away, whatever its shape) and keeps the most recently used `maxSize`, keyed by pattern text.
 * A pattern RE2 refuses (lookbehind, backreferences...) is remembered as refused, logged once
 * while remembered, and yields `undefined`. Evicted patterns are compiled again when next asked
 * for; their WebAssembly memory is freed once garbage-collected.
 */
export class PatternCache {
  readonly #compiled = new Map<string, CompiledPattern | null>();
  readonly #log: PatternLog | undefined;
  readonly #compile: (pattern: string) => CompiledPattern;
  readonly #maxSize: number;

  constructor(options: { log?: PatternLog; compile?: (pattern: string) => CompiledPattern; maxSize?: number } = {}) {
    this.#log = options.log;
    this.#compile = options.compile ?? compileRe2;
    this.#maxSize = options.maxSize ?? PATTERN_CACHE_SIZE;
  }

  /** The compiled pattern, or undefined when RE2 cannot compile it. */
  get(pattern: string): CompiledPattern | undefined {
    const cached = this.#compiled.get(pattern);
    if (cached !== undefined) {
      this.#compiled.delete(pattern); // most recently used last
      this.#compiled.set(pattern, cached);
      return cached ?? undefined;
    }
    let compiled: CompiledPattern | null;
    try {
      compiled = this.#compile(pattern);
    } catch (error) {
      compiled = null;
      this.#log?.warn(
        { pattern, reason: errorMessage(error) },
        'match pattern refused by RE2; templates using it never match',
      );
    }
    this.#compiled.set(pattern, compiled);
    if (this.#compiled.size > this.#maxSize) {
      const oldest = this.#compiled.keys().next();
      if (!oldest.done) this.#compiled.delete(oldest.value);
    }
    return compiled ?? undefined;
  }

  /** Number of distinct patterns seen (compiled or refused). */
  get size(): number {
    return this.#compiled.size;
  }
}
