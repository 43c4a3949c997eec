import { RE2 } from 're2-wasm';

/** The one method of a compiled pattern the matcher calls. */
export interface CompiledPattern {
  test(input: string): boolean;
}

/** Where refused patterns are reported (a pino logger fits). */
export interface PatternLog {
  warn(object: object, message: string): void;
}

/**
 * Compiles user patterns with RE2 (linear-time matching: no input can make a pattern run
 * away, whatever its shape) and keeps them for the life of the process, keyed by pattern text.
 * A pattern RE2 refuses (lookbehind, backreferences...) is remembered as refused, logged once,
 * and yields `undefined`.
 *
 * RE2 objects live in WebAssembly memory the garbage collector does not reclaim, so entries are
 * never evicted; the cache grows with the number of distinct patterns ever stored.
 */
export class PatternCache {
  readonly #compiled = new Map<string, CompiledPattern | null>();
  readonly #log: PatternLog | undefined;
  readonly #compile: (pattern: string) => CompiledPattern;

  constructor(options: { log?: PatternLog; compile?: (pattern: string) => CompiledPattern } = {}) {
    this.#log = options.log;
    this.#compile = options.compile ?? ((pattern) => new RE2(pattern, 'u'));
  }

  /** The compiled pattern, or undefined when RE2 cannot compile it. */
  get(pattern: string): CompiledPattern | undefined {
    const cached = this.#compiled.get(pattern);
    if (cached !== undefined) return cached ?? undefined;
    let compiled: CompiledPattern | null;
    try {
      compiled = this.#compile(pattern);
    } catch (error) {
      compiled = null;
      this.#log?.warn({ pattern, reason: (error as Error).message }, 'match pattern refused by RE2; templates using it never match');
    }
    this.#compiled.set(pattern, compiled);
    return compiled ?? undefined;
  }

  /** Number of distinct patterns seen (compiled or refused). */
  get size(): number {
    return this.#compiled.size;
  }
}
