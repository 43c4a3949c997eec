import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from './error-body.js';
import { recordRoutes } from './route-recorder.js';

/** Where the UI is served; the document is at `OPENAPI_DOCUMENT_PATH`. */
export const OPENAPI_UI_PREFIX = '/docs';
/** Where the OpenAPI document is served as JSON. */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** An OpenAPI 3.0 security scheme (the kinds Triad uses). */
export type OpenApiSecurityScheme =
  | { readonly type: 'http'; readonly scheme: string; readonly bearerFormat?: string; readonly description?: string }
  | {
      readonly type: 'apiKey';
      readonly name: string;
      readonly in: 'header' | 'query' | 'cookie';
      readonly description?: string;
    }
  | {
      readonly type: 'oauth2';
      readonly description?: string;
      readonly flows: {
        readonly clientCredentials?: { readonly tokenUrl: string; readonly scopes: Readonly<Record<string, string>> };
      };
    };

/** A security requirement: scheme name -> scopes (empty for non-OAuth schemes). */
export type OpenApiSecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OpenApiOptions {
  readonly title: string;
  /** The API's version (the package version). */
  readonly version: string;
  /** What the API is for, its error shape and its authentication, in a few sentences (Markdown). */
  readonly description: string;
  /** The body of every error reply (`PROBLEM_ERROR_BODY` or `REASON_ERROR_BODY`); added as a shared schema. */
  readonly errorBody: ErrorBody;
  /** Tags operations use, in display order. */
  readonly tags?: readonly { readonly name: string; readonly description?: string }[];
  /**
   * Absolute URL clients reach the service at (no trailing slash), listed first in `servers`.
   * A relative `/` server (the host the document was fetched from) is always listed.
   */
  readonly serverUrl?: string | undefined;
  readonly securitySchemes?: Readonly<Record<string, OpenApiSecurityScheme>>;
  /**
   * Default requirement of every operation; default `[]` (no authentication). An operation
   * overrides it with its route schema's `security` (`[]` for a public one).
   */
  readonly security?: readonly OpenApiSecurityRequirement[];
}

/**
 * Documents the app with OpenAPI 3.0.3: registers @fastify/swagger (dynamic: every route with a
 * schema becomes an operation, `schema.hide` leaves it out), serves the document at
 * `GET /openapi.json` and Swagger UI at `/docs`, adds `options.errorBody.schema` as a shared schema
 * (`$ref: '<$id>#'` in routes, `#/components/schemas/<$id>` in the document; see `errorResponses`),
 * and records the app's routes for `checkOpenApiCoverage`.
 *
 * Call it once on the root instance before any route is registered (`createServiceApp`'s
 * `beforeRoutes`), so every route is both documented and recorded.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  recordRoutes(app);
  app.addSchema({ ...options.errorBody.schema });
  const servers = [
    ...(options.serverUrl ? [{ url: options.serverUrl.replace(/\/+$/, ''), description: 'Configured address' }] : []),
    { url: '/', description: 'The server this document was fetched from' },
  ];
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: options.title, version: options.version, description: options.description },
      servers,
      tags: (options.tags ?? []).map((tag) => ({ ...tag })),
      components: {
        securitySchemes: structuredClone(options.securitySchemes ?? {}),
      },
      security: (options.security ?? []).map((requirement) =>
        Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, [...scopes]])),
      ),
    },
    // Shared schemas keep their `$id` as component name (the default is `def-<n>`).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: OPENAPI_UI_PREFIX });
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, () => app.swagger());
}
