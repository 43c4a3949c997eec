import type { SourceFormat } from '@triad/device-templates';

/** The match filters a template declares (`rangerFilter`); absent fields are not declared. */
export interface RangerFilter {
  readonly deviceID?: string;
  readonly vendorID?: string;
  readonly description?: string;
}

/**
 * What the registry indexes about a template document (read by `extractTemplateFacts`): the one
 * list of template fields that stored records and writes extend.
 */
export interface TemplateFacts {
  readonly templateId: string;
  readonly templateVersion: string;
  readonly description: string;
  readonly alias: string | null;
  readonly schemaVersion: string | null;
  readonly origin: string;
  /** Declared `originTypes[].originType` and every `addressConfig.originType` used, sorted, no duplicates. */
  readonly originTypes: readonly string[];
  readonly rangerFilter: RangerFilter | null;
}

/** What the registry knows about one stored version, without its source or document. */
export interface TemplateSummaryRecord extends TemplateFacts {
  /** 0 = newest version of its templateId. */
  readonly versionRank: number;
  readonly sourceFormat: SourceFormat;
  readonly sourceSha256: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A stored version with its source text and parsed document (JSON text). */
export interface TemplateRecord extends TemplateSummaryRecord {
  readonly sourceText: string;
  readonly documentJson: string;
}

/** What a write stores; rank and timestamps are the repository's business. */
export interface NewTemplateRecord extends TemplateFacts {
  readonly sourceFormat: SourceFormat;
  readonly sourceText: string;
  readonly documentJson: string;
}

/** Filters and paging of a registry listing. */
export interface TemplateListQuery {
  /** templateId starts with this (case-sensitive). */
  readonly prefix?: string;
  /** Text found, ignoring case, in templateId, alias or description. */
  readonly text?: string;
  /** The version uses this originType. */
  readonly originType?: string;
  /** Only the newest version of each templateId. */
  readonly latestOnly?: boolean;
  readonly limit: number;
  readonly offset: number;
}
