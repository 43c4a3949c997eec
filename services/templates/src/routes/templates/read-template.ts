import type { FastifyReply } from 'fastify';
import type { SchemaRequest } from '@triad/service-kit';
import { JSON_MEDIA_TYPE, YAML_MEDIA_TYPES, mediaTypeOf, negotiate } from '../../http/media-types.js';
import { templatesProblems } from '../../errors.js';
import { presentTemplateSummary } from '../../presenters/template-presenter.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';
import type { listVersionsSchema, readTemplateSchema } from './schemas.js';

/**
 * `GET /templates/:templateId/:templateVersion`: the document as JSON, or the stored source
 * text (`?format=source`, or Accept preferring YAML for a template stored as YAML). The ETag is
 * the SHA-256 of the stored source: `"<sha>"` for the source text as stored, `"<sha>-json"` for
 * the JSON document derived from it, so the two representations never share a tag. A request whose
 * `If-None-Match` names the tag of the representation it would get (or `*`) gets 304 without a body.
 */
export function readTemplateHandler(repository: TemplateRepository) {
  return async (request: SchemaRequest<typeof readTemplateSchema>, reply: FastifyReply) => {
    const { templateId, templateVersion } = request.params;
    const record = await repository.find(templateId, templateVersion);
    if (!record) {
      throw templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', `No template ${templateId} ${templateVersion}`, {
        templateId,
        templateVersion,
      });
    }
    let mediaType: string;
    if (request.query.format === 'source') {
      mediaType = mediaTypeOf(record.sourceFormat);
    } else if (request.query.format === 'json') {
      mediaType = JSON_MEDIA_TYPE;
    } else {
      const offered = record.sourceFormat === 'yaml' ? [JSON_MEDIA_TYPE, ...YAML_MEDIA_TYPES] : [JSON_MEDIA_TYPE];
      const chosen = negotiate(request.headers.accept, offered);
      if (!chosen) {
        throw templatesProblems.create(
          'TPL_ERR_NOT_ACCEPTABLE',
          `Available as ${offered.join(', ')}; ?format=source gives the source as stored`,
          {
            available: offered,
          },
        );
      }
      mediaType = chosen;
      reply.header('vary', 'Accept');
    }
    const sendSource = request.query.format === 'source' || mediaType !== JSON_MEDIA_TYPE;
    const etag = sendSource ? `"${record.sourceSha256}"` : `"${record.sourceSha256}-json"`;
    reply.header('etag', etag);
    reply.header('last-modified', new Date(record.updatedAt).toUTCString());
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
    // Stored JSON text is sent as is: no parse and re-serialise per read.
    return reply.type(`${mediaType}; charset=utf-8`).send(sendSource ? record.sourceText : record.documentJson);
  };
}

/**
 * Whether an `If-None-Match` header names `etag` (RFC 9110 §13.1.2: `*` matches any current
 * representation; the comparison is weak, so `W/"x"` matches `"x"`).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

/** `GET /templates/:templateId`: every version, newest first. */
export function listVersionsHandler(repository: TemplateRepository) {
  return async (request: SchemaRequest<typeof listVersionsSchema>) => {
    const { templateId } = request.params;
    const versions = await repository.listVersions(templateId);
    if (versions.length === 0)
      throw templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', `No template ${templateId}`, { templateId });
    return { templateId, items: versions.map(presentTemplateSummary) };
  };
}
