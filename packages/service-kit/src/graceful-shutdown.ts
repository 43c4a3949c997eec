/** The few process methods shutdown needs (so tests can pass a fake). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** What is shut down: a Fastify app satisfies it. */
export interface Closable {
  close(): Promise<unknown>;
  readonly log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export interface GracefulShutdownOptions {
  /** Default SIGINT and SIGTERM. */
  readonly signals?: readonly NodeJS.Signals[];
  /** How long closing may take before the process exits anyway, in ms. Default 10 000 (10 s). */
  readonly timeoutMs?: number;
  /** Runs after the app closed (close the database...). */
  readonly onClosed?: () => Promise<void>;
  /** Default `process`. */
  readonly process?: SignalSource;
  /** Default `process.exit`. */
  readonly exit?: (code: number) => void;
}

/**
 * On the first signal closes the app (in-flight requests finish, `/healthz` turns 503), runs
 * `onClosed`, then exits 0; exits 1 when that fails or takes longer than `timeoutMs`. A second
 * signal exits 1 at once. Returns a function that removes the listeners.
 */
export function installGracefulShutdown(app: Closable, options: GracefulShutdownOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const source: SignalSource = options.process ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = options.timeoutMs ?? 10_000; // 10 s
  let shuttingDown = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      app.log.error({ signal }, 'second signal during shutdown: exiting now');
      exit(1);
      return;
    }
    shuttingDown = true;
    app.log.info({ signal, timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown took too long: exiting');
      exit(1);
    }, timeoutMs);
    timer.unref?.();
    void (async () => {
      try {
        await app.close();
        await options.onClosed?.();
        clearTimeout(timer);
        exit(0);
      } catch (error) {
        clearTimeout(timer);
        app.log.error({ err: error }, 'shutdown failed');
        exit(1);
      }
    })();
  };

  const listeners = signals.map((signal) => {
    const listener = () => onSignal(signal);
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
  };
}

/**
 * The `close` a service hands its caller. With `handleSignals`, SIGINT/SIGTERM run the same
 * `close` (every part, in its order) through `installGracefulShutdown` and exit; calling the
 * returned function first removes those listeners, then closes.
 */
export function serviceCloser(
  close: () => Promise<void>,
  log: Closable['log'],
  handleSignals: boolean,
  options: Omit<GracefulShutdownOptions, 'onClosed'> = {},
): () => Promise<void> {
  const uninstall = handleSignals ? installGracefulShutdown({ close, log }, options) : undefined;
  return async () => {
    uninstall?.();
    await close();
  };
}
