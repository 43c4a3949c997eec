/**
 * The template service's HTTP API as the templates area uses it (same origin, no credentials:
 * the service has no authentication). Every function throws `TemplatesApiError` for a reply that
 * is not the one asked for, with the problem document's title and detail.
 */

/** One validation problem (`ProblemEntry` of the service): 1-based line and column, 0 when unknown. */
export interface TemplateProblem {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly suggestion?: string;
}

/** A stored version as listed by the registry (`TemplateSummary`). */
export interface TemplateSummary {
  readonly templateId: string;
  readonly templateVersion: string;
  readonly latest: boolean;
  readonly description: string;
  readonly alias: string | null;
  readonly originTypes: readonly string[];
  readonly sourceFormat: SourceFormat;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type SourceFormat = 'json' | 'yaml';

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

/** One datapoint update sent to the value pipeline. */
export interface PipelineUpdate {
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly rawValue?: unknown;
  readonly tableIndex?: string | number;
}

export interface PipelineValue {
  readonly datapointSetId: string;
  readonly datapointId: string;
  readonly tableIndex?: string | number;
  readonly value: unknown;
  readonly rawValue: unknown;
  readonly unit?: string;
  readonly quality: string;
}

export interface PipelineEvent {
  readonly type: 'alarm-raised' | 'alarm-cleared' | 'log' | 'evaluation-error' | 'update-rejected';
  readonly datapointSetId?: string;
  readonly datapointId?: string;
  readonly severity?: number;
  readonly level?: string;
  readonly text?: string;
  readonly code?: string;
  readonly message?: string;
}

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

/** `GET` as JSON; a reply other than 2xx throws `TemplatesApiError`. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  if (!response.ok) return fail(response);
  return (await response.json()) as T;
}

/** `GET /templates`: one page of versions matching the filters. */
export function listTemplates(query: ListQuery, signal?: AbortSignal): Promise<TemplatePage> {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.originType) params.set('originType', query.originType);
  if (query.latest) params.set('latest', 'true');
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined) params.set('offset', String(query.offset));
  const search = params.toString();
  return getJson<TemplatePage>(`/templates${search ? `?${search}` : ''}`, signal);
}

/** `GET /templates/:id`: every version, newest first. */
export async function listVersions(templateId: string, signal?: AbortSignal): Promise<readonly TemplateSummary[]> {
  return (await getJson<{ items: TemplateSummary[] }>(templateUrl(templateId), signal)).items;
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
export function validateTemplate(text: string, format: SourceFormat, signal?: AbortSignal): Promise<ValidationReply> {
  return fetch('/validate', {
    method: 'POST',
    headers: { 'content-type': mediaTypeOf(format), accept: 'application/json' },
    body: text,
    ...(signal ? { signal } : {}),
  }).then(async (response) => (response.ok ? ((await response.json()) as ValidationReply) : fail(response)));
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
  const response = await fetch(`${templateUrl(templateId, templateVersion)}/evaluate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ updates }),
  });
  if (!response.ok) return fail(response);
  return (await response.json()) as EvaluateReply;
}
