import type { FastifyInstance } from 'fastify';

/**
 * Lets a `DELETE` without a body through whatever `Content-Type` it names: some clients (Erlang's
 * `httpc` in a published WombatOAM load-test helper among them) send `application/json` on every
 * request, and the JSON parser would refuse the empty body (`body_empty`). Such a request is
 * treated as one without a body; a `DELETE` that carries a body is parsed as usual.
 */
export function useBodilessDelete(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.headers;
    if (
      request.method === 'DELETE' &&
      headers['transfer-encoding'] === undefined &&
      !(Number(headers['content-length']) > 0)
    )
      delete headers['content-type'];
    done();
  });
}
