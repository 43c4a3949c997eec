import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorMessage } from '@triad/common';
import { DocumentLoadError, loadDocument, type SourceFormat } from '@triad/device-templates';
import { kitProblems, measureJsonDepth } from '@triad/service-kit';
import { templatesProblems } from '../errors.js';
import { presentProblems } from '../presenters/problem-presenter.js';
import { YAML_MEDIA_TYPES, formatOfContentType } from './media-types.js';

/**
 * Makes the bodies of the routes in `app`'s context raw template source text: JSON (depth still
 * checked) and the YAML media types. The bytes are decoded as strict UTF-8, as the command line
 * reads files: a body that is not UTF-8 is refused (422 `TPL_ERR_TEMPLATE_INVALID` carrying the
 * loader's `DT_ERR_LOAD_ENCODING` problem with its byte offset and line:column) instead of being
 * stored with U+FFFD in place of the bad bytes. The device-templates loader parses the text
 * itself, so problems carry line and column.
 */
export function useTemplateSourceParsers(app: FastifyInstance, options: { maxJsonDepth: number }): void {
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body: string | Buffer, done) => {
    try {
      const text = strictText(body, 'json');
      if (measureJsonDepth(text, options.maxJsonDepth) > options.maxJsonDepth) {
        throw kitProblems.create(
          'SVC_ERR_JSON_TOO_DEEP',
          `The body nests deeper than the limit of ${options.maxJsonDepth} levels`,
          { maxDepth: options.maxJsonDepth },
        );
      }
      done(null, text);
    } catch (error) {
      done(asError(error), undefined);
    }
  });
  app.addContentTypeParser([...YAML_MEDIA_TYPES], { parseAs: 'buffer' }, (_request, body: string | Buffer, done) => {
    try {
      done(null, strictText(body, 'yaml'));
    } catch (error) {
      done(asError(error), undefined);
    }
  });
}

/** What a content-type parser hands Fastify: the thrown error itself (they are all problems here). */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; throws the 422 problem when its bytes are not UTF-8. */
function strictText(body: string | Buffer, format: SourceFormat): string {
  if (typeof body === 'string') return body;
  try {
    return strictDecoder.decode(body);
  } catch {
    // The loader finds the first bad sequence and says where it is (byte offset, line:column).
    const problem = encodingProblem(body, format);
    throw templatesProblems.create('TPL_ERR_TEMPLATE_INVALID', `The body is not valid UTF-8: ${problem.message}`, {
      errors: presentProblems([problem]),
      warnings: [],
    });
  }
}

function encodingProblem(bytes: Uint8Array, format: SourceFormat) {
  try {
    loadDocument(bytes, { format, file: '<request body>' });
  } catch (error) {
    if (error instanceof DocumentLoadError) return error.problem;
    throw error;
  }
  // TextDecoder and the loader agree on what UTF-8 is; this is only reached if they ever differ.
  throw new Error('the strict decoder refused a body the loader accepted');
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
