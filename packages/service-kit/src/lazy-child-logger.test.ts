import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';
import { createLogger } from './logger.js';

function capture(level: 'info' | 'warn' | 'debug') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      callback();
    },
  });
  const logger = createLogger({ level, destination });
  let children = 0;
  type ChildFn = (this: typeof logger, ...args: Parameters<typeof logger.child>) => ReturnType<typeof logger.child>;
  const holder: { readonly child: ChildFn } = logger;
  const child = holder.child;
  // pino children inherit from their parent object, so the wrapper must call on `this`.
  logger.child = function (this: typeof logger, ...args: Parameters<typeof child>) {
    children += 1;
    return child.apply(this, args);
  } as typeof logger.child;
  return { logger: logger as unknown as FastifyBaseLogger, lines, children: () => children };
}

describe('lazyChildLoggerFactory', () => {
  it('makes no pino child while nothing is logged at an enabled level', () => {
    const { logger, lines, children } = capture('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r1' }, {});
    log.info('not at warn');
    log.debug('nor this');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes the same lines as the child would: bindings, message and redaction', () => {
    const { logger, lines, children } = capture('info');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r2' }, {});
    log.info({ password: 'hunter2', n: 1 }, 'first');
    log.warn('second');
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg, l.password, l.n])).toEqual([
      ['r2', 'first', '[redacted]', 1],
      ['r2', 'second', undefined, undefined],
    ]);
  });

  it('honours a per-route level given in the child options and later level changes', () => {
    const { logger, lines } = capture('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r3' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('route debug');
    log.level = 'error';
    log.warn('now below the level');
    expect(lines.map((l) => l.msg)).toEqual(['route debug']);
  });

  it('gives children that carry both sets of bindings', () => {
    const { logger, lines } = capture('info');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r4' }, {});
    log.child({ part: 'x' }).info('nested');
    expect(lines[0]).toMatchObject({ reqId: 'r4', part: 'x', msg: 'nested' });
  });
});
