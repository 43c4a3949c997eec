/**
 * Who may write: with `TRIAD_TEMPLATES_ADMIN_TOKEN` set, a write needs `Authorization: Bearer
 * <that token>` (compared in constant time over SHA-256 digests, so neither the token's length
 * nor its prefix leaks through timing). Without it, writes are open, as the registry's have
 * always been; `triad serve` warns about that.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { templatesProblems } from '../errors.js';

export type WriteAccess = (request: FastifyRequest) => void;

export function writeAccess(adminToken: string | undefined): WriteAccess {
  if (adminToken === undefined || adminToken === '') return () => {};
  const expected = digest(adminToken);
  return (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (match === null)
      throw templatesProblems.create(
        'TPL_ERR_UNAUTHORIZED',
        'Send the write token as "Authorization: Bearer <token>" (TRIAD_TEMPLATES_ADMIN_TOKEN of the service)',
      );
    if (!timingSafeEqual(digest(match[1]!), expected))
      throw templatesProblems.create('TPL_ERR_FORBIDDEN', 'The bearer token is not a write token of this service');
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
