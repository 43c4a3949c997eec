import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { installGracefulShutdown, serviceCloser, type Closable } from './graceful-shutdown.js';

function fakeApp(close: () => Promise<void>): Closable {
  return { close, log: { info: () => {}, error: () => {} } };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('installGracefulShutdown', () => {
  it('closes the app and runs onClosed on SIGTERM, then exits 0', async () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    const close = vi.fn(async () => {});
    const onClosed = vi.fn(async () => {});
    installGracefulShutdown(fakeApp(close), { process: events, exit, onClosed });
    events.emit('SIGTERM');
    await settle();
    expect(close).toHaveBeenCalledTimes(1);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('forces exit 1 on a second signal while closing', async () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    installGracefulShutdown(
      fakeApp(() => new Promise(() => {})),
      { process: events, exit },
    );
    events.emit('SIGINT');
    await settle();
    expect(exit).not.toHaveBeenCalled();
    events.emit('SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 1 when closing outlasts the timeout', () => {
    vi.useFakeTimers();
    try {
      const events = new EventEmitter();
      const exit = vi.fn();
      installGracefulShutdown(
        fakeApp(() => new Promise(() => {})),
        { process: events, exit, timeoutMs: 1000 },
      );
      events.emit('SIGTERM');
      vi.advanceTimersByTime(999);
      expect(exit).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('exits 1 when closing fails', async () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    installGracefulShutdown(
      fakeApp(async () => Promise.reject(new Error('stuck'))),
      { process: events, exit },
    );
    events.emit('SIGTERM');
    await settle();
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('removes its listeners when uninstalled', () => {
    const events = new EventEmitter();
    const uninstall = installGracefulShutdown(
      fakeApp(async () => {}),
      { process: events, exit: () => {} },
    );
    expect(events.listenerCount('SIGINT')).toBe(1);
    uninstall();
    expect(events.listenerCount('SIGINT')).toBe(0);
    expect(events.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('serviceCloser', () => {
  const log = { info: () => {}, error: () => {} };

  it('runs the whole close on a signal when signals are handled, then exits 0', async () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    const close = vi.fn(async () => {});
    serviceCloser(close, log, true, { process: events, exit });
    events.emit('SIGTERM');
    await settle();
    expect(close).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('removes its signal listeners when called, and closes', async () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    const close = vi.fn(async () => {});
    const closeService = serviceCloser(close, log, true, { process: events, exit });
    expect(events.listenerCount('SIGINT')).toBe(1);
    await closeService();
    expect(close).toHaveBeenCalledTimes(1);
    expect(events.listenerCount('SIGINT')).toBe(0);
    events.emit('SIGINT');
    await settle();
    expect(exit).not.toHaveBeenCalled();
  });

  it('listens to no signal when signals are not handled', async () => {
    const events = new EventEmitter();
    const close = vi.fn(async () => {});
    await serviceCloser(close, log, false, { process: events })();
    expect(events.listenerCount('SIGTERM')).toBe(0);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
