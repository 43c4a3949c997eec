/**
 * The template service's HTTP API as the templates area uses it (same origin, no credentials:
 * the service has no authentication). Every function throws `TemplatesApiError` for a reply that
 * is not the one asked for, with the problem document's title and detail. The replies' types
 * come from the service's OpenAPI document (`npm run generate`).
 */
import type { paths } from '../../generated/templates-api.js';
import { apiClient, problemMessage } from '../../shell/api-client.js';
import type { ReplyBody, RequestBody } from '../../shell/api-types.js';

/** The template service's routes, typed from its OpenAPI document. */
export const templatesClient = apiClient<paths>();

type ListedVersion = ReplyBody<paths['/templates']['get']>['items'][number];

/** One validation problem (`ProblemEntry` of the service): 1-based line and column, 0 when unknown. */
export type TemplateProblem = Pick<
  ReplyBody<paths['/validate']['post']>['errors'][number],
  'code' | 'severity' | 'path' | 'line' | 'column' | 'message' | 'suggestion'
>;

/** A stored version as listed by the registry (`TemplateSummary`). */
export type TemplateSummary = Pick<
  ListedVersion,
  | 'templateId'
  | 'templateVersion'
  | 'latest'
  | 'description'
  | 'alias'
  | 'originTypes'
  | 'sourceFormat'
  | 'createdAt'
  | 'updatedAt'
>;

export type SourceFormat = ListedVersion['sourceFormat'];

export interface TemplatePage {
  readonly items: readonly TemplateSummary[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

export interface ListQuery {
  /** Text in templateId, alias or description. */
  readonly q?: string;
  /** Driver: the version declares or uses this originType. */
  readonly originType?: string;
  readonly latest?: boolean;
  readonly limit?: number;
  readonly offset?: number;
}

export interface ValidationReply {
  readonly valid: boolean;
  readonly errors: readonly TemplateProblem[];
  readonly warnings: readonly TemplateProblem[];
}

/** The outcome of a save: stored, or refused with the validator's problems. */
export type SaveOutcome =
  | { readonly kind: 'saved'; readonly template: TemplateSummary; readonly warnings: readonly TemplateProblem[] }
  | { readonly kind: 'invalid'; readonly errors: readonly TemplateProblem[] }
  | { readonly kind: 'exists'; readonly detail: string };

type Evaluation = ReplyBody<paths['/templates/{templateId}/{templateVersion}/evaluate']['post']>;

/** One datapoint update sent to the value pipeline. */
export type PipelineUpdate = Pick<
  RequestBody<paths['/templates/{templateId}/{templateVersion}/evaluate']['post']>['updates'][number],
  'datapointSetId' | 'datapointId' | 'rawValue' | 'tableIndex'
>;

export type PipelineValue = Pick<
  Evaluation['values'][number],
  'datapointSetId' | 'datapointId' | 'tableIndex' | 'value' | 'rawValue' | 'unit' | 'quality'
>;

export type PipelineEvent = Pick<
  Evaluation['events'][number],
  'type' | 'datapointSetId' | 'datapointId' | 'severity' | 'level' | 'text' | 'code' | 'message'
>;

export interface EvaluateReply {
  readonly values: readonly PipelineValue[];
  readonly events: readonly PipelineEvent[];
}

/** A reply the area did not expect: status and the problem's title/detail. */
export class TemplatesApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'TemplatesApiError';
    this.status = status;
  }
}

/** Path of a template or one of its versions (segments URL-encoded: ids hold spaces). */
export function templateUrl(templateId: string, templateVersion?: string): string {
  const base = `/templates/${encodeURIComponent(templateId)}`;
  return templateVersion === undefined ? base : `${base}/${encodeURIComponent(templateVersion)}`;
}

/** Media type of a source format, as the service accepts it. */
export function mediaTypeOf(format: SourceFormat): string {
  return format === 'yaml' ? 'application/yaml' : 'application/json';
}

/** A problem document of the service; `errors` as the failing route lists them. */
export interface ProblemBody<E = TemplateProblem> {
  readonly title?: string;
  readonly detail?: string;
  readonly errors?: readonly E[];
}

/** The problem document of a reply; empty when the body is not JSON. */
export async function problemOf<E = TemplateProblem>(response: Response): Promise<ProblemBody<E>> {
  try {
    return (await response.json()) as ProblemBody<E>;
  } catch {
    return {};
  }
}

/** Throws `TemplatesApiError` with the reply's status and its problem's detail or title. */
export async function fail(response: Response): Promise<never> {
  const problem = await problemOf(response);
  throw new TemplatesApiError(response.status, problem.detail ?? problem.title ?? `HTTP ${response.status}`);
}

/**
 * Throws `TemplatesApiError` with a refused reply's status and its problem's detail or title, from
 * the body a typed client already read (`error`).
 */
export function refused(response: Response, problem: unknown): never {
  throw new TemplatesApiError(response.status, problemMessage(problem) ?? `HTTP ${response.status}`);
}

/** `GET` as JSON, of any shape; a reply other than 2xx throws `TemplatesApiError`. */
export async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  if (!response.ok) return fail(response);
  const body: unknown = await response.json();
  return body;
}

/** What a JSON read sends besides its parameters. */
function jsonInit(signal: AbortSignal | undefined): {
  readonly headers: Record<string, string>;
  readonly signal?: AbortSignal;
} {
  return { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) };
}

/** `GET /templates`: one page of versions matching the filters. */
export async function listTemplates(query: ListQuery, signal?: AbortSignal): Promise<TemplatePage> {
  const { data, error, response } = await templatesClient.GET('/templates', {
    params: {
      query: {
        ...(query.q ? { q: query.q } : {}),
        ...(query.originType ? { originType: query.originType } : {}),
        ...(query.latest ? { latest: true } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
        ...(query.offset !== undefined ? { offset: query.offset } : {}),
      },
    },
    ...jsonInit(signal),
  });
  return data === undefined ? refused(response, error) : data;
}

/** `GET /templates/:id`: every version, newest first. */
export async function listVersions(templateId: string, signal?: AbortSignal): Promise<readonly TemplateSummary[]> {
  const { data, error, response } = await templatesClient.GET('/templates/{templateId}', {
    params: { path: { templateId } },
    ...jsonInit(signal),
  });
  return data === undefined ? refused(response, error) : data.items;
}

/** `GET /templates/:id/:version?format=source`: the source text as stored, and its format. */
export async function readSource(
  templateId: string,
  templateVersion: string,
): Promise<{ readonly text: string; readonly format: SourceFormat }> {
  const response = await fetch(`${templateUrl(templateId, templateVersion)}?format=source`);
  if (!response.ok) return fail(response);
  const type = response.headers.get('content-type') ?? '';
  return { text: await response.text(), format: type.includes('yaml') ? 'yaml' : 'json' };
}

/** `POST /validate`: the validator's verdict; never stores. */
export async function validateTemplate(
  text: string,
  format: SourceFormat,
  signal?: AbortSignal,
): Promise<ValidationReply> {
  const { data, error, response } = await templatesClient.POST('/validate', {
    headers: { 'content-type': mediaTypeOf(format), accept: 'application/json' },
    body: text,
    // The source text as typed (JSON or YAML), not the text encoded as a JSON string.
    bodySerializer: () => text,
    ...(signal ? { signal } : {}),
  });
  return data === undefined ? refused(response, error) : data;
}

/**
 * `POST /templates`: stores the text as a new version (its templateId and templateVersion), with
 * the write token when one is given. A 401 or 403 is thrown as a TemplatesApiError (the page asks
 * for the token).
 */
export async function saveNewVersion(text: string, format: SourceFormat, token?: string): Promise<SaveOutcome> {
  const response = await fetch('/templates', {
    method: 'POST',
    headers: {
      'content-type': mediaTypeOf(format),
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: text,
  });
  if (response.status === 201) {
    const body = (await response.json()) as { template: TemplateSummary; warnings: TemplateProblem[] };
    return { kind: 'saved', template: body.template, warnings: body.warnings };
  }
  if (response.status === 422) return { kind: 'invalid', errors: (await problemOf(response)).errors ?? [] };
  if (response.status === 409) {
    const problem = await problemOf(response);
    return { kind: 'exists', detail: problem.detail ?? problem.title ?? 'This version exists' };
  }
  return fail(response);
}

/** `POST /templates/:id/:version/evaluate`: the updates through a fresh value pipeline. */
export async function evaluateTemplate(
  templateId: string,
  templateVersion: string,
  updates: readonly PipelineUpdate[],
): Promise<EvaluateReply> {
  const { data, error, response } = await templatesClient.POST('/templates/{templateId}/{templateVersion}/evaluate', {
    params: { path: { templateId, templateVersion } },
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: { updates: [...updates] },
  });
  return data === undefined ? refused(response, error) : data;
}
