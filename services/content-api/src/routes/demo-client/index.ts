import type { FastifyInstance } from 'fastify';
import { useSchemasAsDocumentation } from '../documentation-only-schemas.js';
import { demoClientSchema } from './schemas.js';

export interface DemoClientRoutesOptions {
  /** The read client to hand out, or undefined when this run must not (see `buildContentApiApp`). */
  readonly client: { readonly clientId: string; readonly clientSecret: string } | undefined;
}

/** Names and addresses only this machine reaches. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/;

/**
 * Whether `host` (a listen address, or a request's host name without port) is loopback: only such
 * a demo run hands its generated read client out.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/**
 * `GET /oauth/demo-client`: the read client of a local demo run, so the console's sign-in form is
 * filled in (docs/console.md, "Catalog"); 204 without a body in every other case, including a
 * request whose `Host` is not a loopback name (a DNS-rebinding page, a proxy). The route always
 * exists, so a console asking a production service gets a quiet "no" instead of a 404 the browser
 * logs as an error.
 */
export function demoClientRoutes(
  app: FastifyInstance,
  options: DemoClientRoutesOptions,
  done: (error?: Error) => void,
): void {
  useSchemasAsDocumentation(app);
  app.get('/oauth/demo-client', { schema: demoClientSchema }, (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { client } = options;
    if (client === undefined || !isLoopbackHost(request.host.replace(/:\d+$/, ''))) return reply.code(204).send();
    return reply.send({ clientId: client.clientId, clientSecret: client.clientSecret });
  });
  done();
}
