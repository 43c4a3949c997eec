import { createServer } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { listenService, serviceUrl } from './listen-service.js';

describe('listenService', () => {
  it('returns the URL of the bound port', async () => {
    const app = Fastify();
    app.get('/', () => 'ok');
    const url = await listenService(app, '127.0.0.1', 0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(url)).text()).toBe('ok');
    await app.close();
  });

  it('closes the app and rethrows when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const app = Fastify();
    let closed = false;
    app.addHook('onClose', (_instance, done) => {
      closed = true;
      done();
    });
    await expect(listenService(app, '127.0.0.1', port)).rejects.toThrow(/EADDRINUSE/);
    expect(closed).toBe(true);
    blocker.close();
  });

  it('brackets IPv6 addresses', () => {
    expect(serviceUrl({ address: '::1', family: 'IPv6', port: 8080 }, '::1')).toBe('http://[::1]:8080');
  });
});
