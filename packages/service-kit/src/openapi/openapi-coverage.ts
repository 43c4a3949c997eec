import type { FastifyInstance } from 'fastify';
import { OPENAPI_DOCUMENT_PATH, OPENAPI_UI_PREFIX } from './register-openapi.js';
import { registeredRoutes } from './route-recorder.js';

/** What `checkOpenApiCoverage` found; every list empty means the document and the server agree. */
export interface OpenApiCoverage {
  /** `METHOD /path` the server answers that the document does not list. */
  readonly undocumented: readonly string[];
  /** `METHOD /path` the document lists that the server does not answer. */
  readonly unregistered: readonly string[];
  /** `METHOD /path: what is missing` for operations lacking operationId, summary or responses. */
  readonly incomplete: readonly string[];
  /** Paths ending in `/` (other than `/` itself). */
  readonly trailingSlashes: readonly string[];
  /** `METHOD /path` of operations that take input (parameters or a body) but list no 4xx response. */
  readonly noClientErrors: readonly string[];
}

/** The parts of an OpenAPI document the check reads. */
interface OpenApiDocumentLike {
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Compares the routes `app` registers with the operations its OpenAPI document lists, both ways,
 * and lists operations lacking an `operationId`, a `summary` or any response, and operations that
 * take input but document no 4xx response (how they refuse bad input). HEAD routes (which
 * Fastify adds beside GET), the UI under `/docs` and `/openapi.json` itself are not compared.
 * Fastify's `:param` becomes `{param}`. The app must be built with `registerOpenApi` and ready.
 * Test helper: it only reads, and never throws for a mismatch.
 */
export async function checkOpenApiCoverage(app: FastifyInstance): Promise<OpenApiCoverage> {
  const response = await app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });
  if (response.statusCode !== 200) throw new Error(`GET ${OPENAPI_DOCUMENT_PATH} answered ${response.statusCode}`);
  const document = response.json<OpenApiDocumentLike>();
  const served = new Set(
    registeredRoutes(app)
      .filter((route) => route.method !== 'HEAD' && !isDocumentationRoute(route.url))
      .map((route) => `${route.method} ${openApiPath(route.url)}`),
  );
  const documented = new Set<string>();
  const incomplete: string[] = [];
  const noClientErrors: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      documented.add(key);
      const missing = missingParts(operation);
      if (missing.length > 0) incomplete.push(`${key}: no ${missing.join(', no ')}`);
      if (takesInput(operation) && !hasClientError(operation)) noClientErrors.push(key);
    }
  }
  return {
    undocumented: [...served].filter((key) => !documented.has(key)).sort(),
    unregistered: [...documented].filter((key) => !served.has(key)).sort(),
    incomplete: incomplete.sort(),
    trailingSlashes: Object.keys(document.paths ?? {})
      .filter((path) => path.length > 1 && path.endsWith('/'))
      .sort(),
    noClientErrors: noClientErrors.sort(),
  };
}

/** Fastify URL -> OpenAPI path: `/a/:id` -> `/a/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function isDocumentationRoute(url: string): boolean {
  return url === OPENAPI_DOCUMENT_PATH || url === OPENAPI_UI_PREFIX || url.startsWith(`${OPENAPI_UI_PREFIX}/`);
}

function fieldsOf(operation: unknown): Readonly<Record<string, unknown>> {
  return typeof operation === 'object' && operation !== null ? (operation as Record<string, unknown>) : {};
}

function takesInput(operation: unknown): boolean {
  const { parameters, requestBody } = fieldsOf(operation);
  return (Array.isArray(parameters) && parameters.length > 0) || requestBody !== undefined;
}

function hasClientError(operation: unknown): boolean {
  const { responses } = fieldsOf(operation);
  return typeof responses === 'object' && responses !== null && Object.keys(responses).some((s) => /^4/.test(s));
}

function missingParts(operation: unknown): string[] {
  const op = fieldsOf(operation);
  const missing: string[] = [];
  if (typeof op.operationId !== 'string' || op.operationId === '') missing.push('operationId');
  if (typeof op.summary !== 'string' || op.summary === '') missing.push('summary');
  const responses = op.responses;
  if (typeof responses !== 'object' || responses === null || Object.keys(responses).length === 0) {
    missing.push('responses');
  }
  return missing;
}
