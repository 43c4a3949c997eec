import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SourceFormat } from '@triad/device-templates';
import { kitProblems, useJsonBodyParser } from '@triad/service-kit';
import { YAML_MEDIA_TYPES, formatOfContentType } from './media-types.js';

/**
 * Makes the bodies of the routes in `app`'s context raw template source text: JSON (depth still
 * checked) and the YAML media types. The device-templates loader parses the text itself, so
 * problems carry line and column.
 */
export function useTemplateSourceParsers(app: FastifyInstance, options: { maxJsonDepth: number }): void {
  useJsonBodyParser(app, { mode: 'text', maxDepth: options.maxJsonDepth });
  app.addContentTypeParser(
    [...YAML_MEDIA_TYPES],
    { parseAs: 'string' },
    (_request: FastifyRequest, body: string | Buffer, done) => {
      done(null, typeof body === 'string' ? body : body.toString('utf8'));
    },
  );
}

/** The request's source text and its format; 415 when the body is not template source. */
export function readTemplateSource(request: FastifyRequest): { text: string; format: SourceFormat } {
  const format = formatOfContentType(request.headers['content-type']);
  if (format === undefined || typeof request.body !== 'string') {
    throw kitProblems.create(
      'SVC_ERR_MEDIA_TYPE_UNSUPPORTED',
      'Send the template as application/json or application/yaml',
      {
        mediaType: String(request.headers['content-type'] ?? ''),
      },
    );
  }
  return { text: request.body, format };
}

/** OpenAPI/route description of a template source body (JSON document or YAML text). */
export const templateSourceBodySchema = {
  content: {
    'application/json': { schema: { description: 'A device template document (JSON object)' } },
    'application/yaml': { schema: { type: 'string', description: 'A device template as YAML text' } },
    'text/yaml': { schema: { type: 'string' } },
    'application/x-yaml': { schema: { type: 'string' } },
  },
} as const;
