import type { TemplateSummaryRecord } from '../model/template-record.js';

/** Path of one stored version (each segment URL-encoded: ids may hold spaces, versions `+`). */
export function templatePath(templateId: string, templateVersion?: string): string {
  const base = `/templates/${encodeURIComponent(templateId)}`;
  return templateVersion === undefined ? base : `${base}/${encodeURIComponent(templateVersion)}`;
}

/** A stored version as clients see it in lists, writes and matches. */
export interface TemplateSummary {
  readonly templateId: string;
  readonly templateVersion: string;
  /** True for the newest version of its templateId (SemVer precedence). */
  readonly latest: boolean;
  readonly description: string;
  readonly alias: string | null;
  readonly schemaVersion: string | null;
  readonly origin: string;
  readonly originTypes: readonly string[];
  readonly rangerFilter: {
    readonly deviceID?: string;
    readonly vendorID?: string;
    readonly description?: string;
  } | null;
  readonly sourceFormat: 'json' | 'yaml';
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly links: { readonly self: string; readonly versions: string };
}

/** Shapes a summary record for the wire; lists every field (never spreads a row). */
export function presentTemplateSummary(record: TemplateSummaryRecord): TemplateSummary {
  return {
    templateId: record.templateId,
    templateVersion: record.templateVersion,
    latest: record.versionRank === 0,
    description: record.description,
    alias: record.alias,
    schemaVersion: record.schemaVersion,
    origin: record.origin,
    originTypes: [...record.originTypes],
    rangerFilter: record.rangerFilter
      ? {
          ...(record.rangerFilter.deviceID !== undefined ? { deviceID: record.rangerFilter.deviceID } : {}),
          ...(record.rangerFilter.vendorID !== undefined ? { vendorID: record.rangerFilter.vendorID } : {}),
          ...(record.rangerFilter.description !== undefined ? { description: record.rangerFilter.description } : {}),
        }
      : null,
    sourceFormat: record.sourceFormat,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    links: { self: templatePath(record.templateId, record.templateVersion), versions: templatePath(record.templateId) },
  };
}

/** JSON schema of `TemplateSummary` (route responses and OpenAPI). */
export const templateSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'templateId',
    'templateVersion',
    'latest',
    'description',
    'alias',
    'schemaVersion',
    'origin',
    'originTypes',
    'rangerFilter',
    'sourceFormat',
    'createdAt',
    'updatedAt',
    'links',
  ],
  properties: {
    templateId: { type: 'string' },
    templateVersion: { type: 'string' },
    latest: { type: 'boolean', description: 'newest version of its templateId by SemVer precedence' },
    description: { type: 'string' },
    alias: { type: ['string', 'null'] },
    schemaVersion: { type: ['string', 'null'] },
    origin: { type: 'string' },
    originTypes: {
      type: 'array',
      items: { type: 'string' },
      description: 'declared originTypes and those used by addressConfig',
    },
    rangerFilter: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { deviceID: { type: 'string' }, vendorID: { type: 'string' }, description: { type: 'string' } },
    },
    sourceFormat: { type: 'string', enum: ['json', 'yaml'] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    links: {
      type: 'object',
      additionalProperties: false,
      required: ['self', 'versions'],
      properties: { self: { type: 'string' }, versions: { type: 'string' } },
    },
  },
} as const;
