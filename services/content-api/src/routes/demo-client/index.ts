import type { FastifyInstance } from 'fastify';
import { kitProblems } from '@triad/service-kit';
import { useSchemasAsDocumentation } from '../documentation-only-schemas.js';
import { demoClientSchema } from './schemas.js';

export interface DemoClientRoutesOptions {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Names and addresses only this machine reaches. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/;

/**
 * Whether a service listening on `host` may hand its generated read client to the console: only
 * a loopback address, so a demo run reachable from elsewhere never gives its client away.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/**
 * `GET /oauth/demo-client`: the read client of a demo run, so the console's sign-in form is
 * filled in (docs/console.md, "Catalog"). The app registers it only for a demo run with a
 * generated client on a loopback address. A request whose `Host` is not a loopback name (a DNS
 * rebinding page, a proxy) gets the route's 404.
 */
export function demoClientRoutes(
  app: FastifyInstance,
  options: DemoClientRoutesOptions,
  done: (error?: Error) => void,
): void {
  useSchemasAsDocumentation(app);
  app.get('/oauth/demo-client', { schema: demoClientSchema }, (request, reply) => {
    const hostname = request.host.replace(/:\d+$/, '');
    if (!isLoopbackHost(hostname))
      throw kitProblems.create('SVC_ERR_ROUTE_NOT_FOUND', 'Route GET /oauth/demo-client not found');
    return reply
      .header('cache-control', 'no-store')
      .send({ clientId: options.clientId, clientSecret: options.clientSecret });
  });
  done();
}
