/** Kysely view of the template service's tables (see `migrations/`). */
export interface TemplatesDatabase {
  template_ids: TemplateIdsTable;
  templates: TemplatesTable;
  template_origin_types: TemplateOriginTypesTable;
}

export interface TemplateIdsTable {
  template_id: string;
  revision: number;
}

export interface TemplatesTable {
  template_id: string;
  template_version: string;
  /** 0 for the newest version of its templateId, then 1, 2... by SemVer precedence. */
  version_rank: number;
  description: string;
  alias: string | null;
  schema_version: string | null;
  origin: string;
  /** JSON array of the originType names the version uses. */
  origin_types_json: string;
  filter_device_id: string | null;
  filter_vendor_id: string | null;
  filter_description: string | null;
  source_format: 'json' | 'yaml';
  source_text: string;
  source_sha256: string;
  /** The parsed document as JSON text. */
  document_json: string;
  /** ISO 8601 UTC. */
  created_at: string;
  updated_at: string;
}

export interface TemplateOriginTypesTable {
  template_id: string;
  template_version: string;
  origin_type: string;
}
