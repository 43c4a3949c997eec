import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

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
});
