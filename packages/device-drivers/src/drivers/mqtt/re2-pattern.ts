/**
 * Regular expressions from templates (topic names, origin expressions) run on RE2 (re2-wasm), in
 * time linear in the input, like the template validator's: a hostile pattern or topic cannot
 * stall the message loop. See docs/decisions/0007-regex-engines.md.
 */
import { createRequire } from 'node:module';
import { errorMessage } from '@triad/common';

/** The part of re2-wasm this module calls. */
interface Re2Instance {
  exec(input: string): (string[] & { groups?: Record<string, string | undefined> }) | null;
}
interface Re2Module {
  readonly RE2: new (pattern: string, flags: string) => Re2Instance;
}

let re2Module: Re2Module | undefined;

// re2-wasm (CommonJS) takes tens of milliseconds to load: load it with the first pattern.
function loadRe2(): Re2Module {
  re2Module ??= createRequire(import.meta.url)('re2-wasm') as Re2Module;
  return re2Module;
}

const MAX_CACHED = 1024;
const compiled = new Map<string, Re2Pattern | string>();

/** A compiled pattern. */
export class Re2Pattern {
  readonly source: string;
  readonly #re2: Re2Instance;

  private constructor(source: string, re2: Re2Instance) {
    this.source = source;
    this.#re2 = re2;
  }

  /**
   * Compiles `source` (RE2 syntax, Unicode); returns RE2's reason when it refuses it. Compiled
   * patterns live in WebAssembly memory the garbage collector does not see, so they are cached
   * per source: a thousand devices of one template share one.
   */
  static compile(source: string): Re2Pattern | string {
    const cached = compiled.get(source);
    if (cached !== undefined) return cached;
    let result: Re2Pattern | string;
    try {
      result = new Re2Pattern(source, new (loadRe2().RE2)(source, 'u'));
    } catch (error) {
      // re2-wasm says `Invalid regular expression: /<source, / escaped>/u: <reason>: <source>`.
      const message = errorMessage(error);
      const escaped = source.replace(/\//g, '\\/');
      const prefix = `Invalid regular expression: /${escaped}/u: `;
      const reason = message.startsWith(prefix) ? message.slice(prefix.length) : message;
      result = reason.endsWith(`: ${escaped}`) ? reason.slice(0, -escaped.length - 2) : reason;
    }
    if (compiled.size < MAX_CACHED) compiled.set(source, result);
    return result;
  }

  test(input: string): boolean {
    return this.#re2.exec(input) !== null;
  }

  /**
   * What the pattern captured in `input`: the group named `origin`, else the first group, else
   * the whole match; undefined when it does not match (or the group took no part).
   */
  capture(input: string): string | undefined {
    const match = this.#re2.exec(input);
    if (match === null) return undefined;
    return match.groups?.['origin'] ?? (match.length > 1 ? match[1] : match[0]);
  }
}
