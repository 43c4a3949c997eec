import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '@triad/service-kit';
import type { AccessPolicy, ReadArea } from '../policies/access-policy.js';

/** The prefix of the device paths, whose reads follow `devicesReadAccess`. */
const DEVICES_PREFIX = '/devices';

/**
 * A Fastify `onRequest` hook that asks `access` about the registry's own paths (`prefixes`): GET
 * and HEAD, /validate, /match and evaluate are reads (of devices under /devices, the stream
 * included); every other method under /templates and /devices is a write. A refusal gets
 * `WWW-Authenticate`, a busy token check `Retry-After: 1`.
 */
export function accessHook(access: AccessPolicy, prefixes: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const path = request.url.split('?')[0] ?? '';
    if (!prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return;
    const method = request.method;
    const read =
      method === 'GET' ||
      method === 'HEAD' ||
      method === 'OPTIONS' ||
      path === '/validate' ||
      path === '/match' ||
      (method === 'POST' && path.endsWith('/evaluate'));
    const area: ReadArea = path === DEVICES_PREFIX || path.startsWith(`${DEVICES_PREFIX}/`) ? 'devices' : 'registry';
    try {
      await access.require(request, read ? 'read' : 'write', area);
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'TPL_ERR_TOKEN_CHECKS_BUSY')
        void reply.header('retry-after', '1');
      else void reply.header('www-authenticate', 'Bearer realm="triad-templates"');
      throw error;
    }
  };
}
