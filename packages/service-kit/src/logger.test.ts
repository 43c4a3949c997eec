import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, resolveLogFormat } from './logger.js';

function capture(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('redacts authorization headers, cookies, passwords, secrets and tokens', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ destination });
    logger.info(
      {
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1', accept: 'text/html' } },
        password: 'p1',
        user: { password: 'p2', token: 't1' },
        config: { db: { secret: 's1' } },
      },
      'hello',
    );
    const text = lines.join('');
    for (const secret of ['Bearer abc', 'sid=1', 'p1', 'p2', 't1', 's1']) expect(text).not.toContain(secret);
    expect(text).toContain('text/html');
    expect(text).toContain('[redacted]');
  });

  it('honours the level and tags lines with the service', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'warn', destination, service: 'templates' });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ msg: 'loud', service: 'templates' });
  });

  it('writes human-readable lines, still redacted, with format pretty', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ format: 'pretty', destination, service: 'templates' });
    logger.info({ password: 'hunter2', port: 8082 }, 'listening');
    const text = lines.join('');
    expect(() => JSON.parse(lines[0] ?? '') as unknown).toThrow(SyntaxError);
    expect(text).toMatch(/INFO.*listening/);
    expect(text).toContain('service: "templates"');
    expect(text).toContain('port: 8082');
    expect(text).not.toContain('hunter2');
    // No colour codes: the destination is not a terminal.
    expect(text).not.toContain('\u001b[');
  });

  it('writes JSON lines to a destination unless told otherwise', () => {
    const { lines, destination } = capture();
    createLogger({ destination }).info('plain');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'plain', level: 30 });
  });

  it('chooses pretty lines for a terminal and JSON for anything else when the format is auto', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });
});
