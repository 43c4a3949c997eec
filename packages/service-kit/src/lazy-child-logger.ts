import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilent } from 'pino';

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LOG_METHODS: readonly LogMethod[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** The parent as the lazy child uses it: a pino logger. */
interface ParentLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
  levels: { values: Record<string, number> };
}

/**
 * A request's logger that becomes a real pino child only when something is logged at an
 * enabled level. Fastify makes a child logger (bindings `{reqId}`) for every request; with
 * redaction configured pino serialises the bindings through the redactor each time, about a
 * tenth of a short request's CPU, for a logger most requests never write to at `warn` level.
 * Lines written through it are exactly the child's lines (same bindings, same options).
 */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger as ParentLogger, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChildLogger {
  readonly #parent: ParentLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #real: FastifyBaseLogger | undefined;
  #level: string | undefined;

  constructor(parent: ParentLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    this.#level = options.level;
  }

  get level(): string {
    return this.#real?.level ?? this.#level ?? this.#parent.level;
  }

  set level(level: LevelWithSilent) {
    if (this.#real) this.#real.level = level;
    else this.#level = level;
  }

  isLevelEnabled(level: Level): boolean {
    if (this.#real) return (this.#real as ParentLogger).isLevelEnabled(level);
    if (this.#level === undefined) return this.#parent.isLevelEnabled(level);
    const values = this.#parent.levels.values;
    const wanted = values[level];
    const threshold = this.#level === 'silent' ? Number.POSITIVE_INFINITY : values[this.#level];
    return wanted !== undefined && threshold !== undefined && wanted >= threshold;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#materialise().child(bindings, options);
  }

  silent(): void {}

  bindings(): Bindings {
    return { ...(this.#parent as unknown as { bindings(): Bindings }).bindings(), ...this.#bindings };
  }

  #materialise(): FastifyBaseLogger {
    if (!this.#real) {
      const options = this.#level !== undefined ? { ...this.#options, level: this.#level } : this.#options;
      this.#real = this.#parent.child(this.#bindings, options);
    }
    return this.#real;
  }

  static {
    for (const method of LOG_METHODS) {
      Object.defineProperty(LazyChildLogger.prototype, method, {
        value(this: LazyChildLogger, ...args: unknown[]) {
          if (!this.isLevelEnabled(method)) return;
          const real = this.#materialise();
          Reflect.apply(real[method], real, args);
        },
      });
    }
  }
}
