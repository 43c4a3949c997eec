/** Kysely view of the template service's tables (see `migrations/`). */
export interface TemplatesDatabase {
  template_ids: TemplateIdsTable;
  templates: TemplatesTable;
  template_origin_types: TemplateOriginTypesTable;
  devices: DevicesTable;
  device_alarms: DeviceAlarmsTable;
  device_events: DeviceEventsTable;
  api_tokens: ApiTokensTable;
  templates_secret_key_checks: SecretKeyChecksTable;
  device_history_series: DeviceHistorySeriesTable;
  device_history_raw: DeviceHistoryRawTable;
  device_history_minute: DeviceHistoryMinuteTable;
  /** The same per hour: what ranges of more than a week are answered from (decision 0050). */
  device_history_hour: DeviceHistoryMinuteTable;
  opcua_client_certificates: OpcuaClientCertificatesTable;
  opcua_trusted_servers: OpcuaTrustedServersTable;
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

export interface DevicesTable {
  id: string;
  name: string;
  template_id: string;
  template_version: string;
  /** JSON object of the device's `/{NAME}/` variables. */
  variables_json: string;
  /** JSON object of driver settings by originType; secret values sealed (`enc:v1:...`). */
  drivers_json: string;
  state: string;
  /** JSON `{code, message, originType, at}` or null. */
  last_error_json: string | null;
  /** Epoch ms (bigint: PostgreSQL answers it as a string). */
  created_at: number | string;
  updated_at: number | string;
}

export interface DeviceAlarmsTable {
  device_id: string;
  datapoint_set_id: string;
  datapoint_id: string;
  /** The table row's key, '' for a map set. */
  row_key: string;
  severity: number;
  text: string;
  text_help: string;
  raised_at: number | string;
  value_json: string;
  /** Who acknowledged it (`token <id>`, `admin token`, `anonymous`); null while not acknowledged. */
  acked_by: string | null;
  acked_at: number | string | null;
}

export interface DeviceEventsTable {
  /** Monotonic: epoch µs of the event, bumped past the last one. */
  seq: number | string;
  device_id: string;
  type: string;
  at: number | string;
  body_json: string;
}

export interface ApiTokensTable {
  id: string;
  name: string;
  /** read, write or admin. */
  scope: string;
  /** `scrypt$N$r$p$salt$key` of the token's secret part. */
  secret_hash: string;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

/** The key sealing each kind of stored secret, by its check value (service-kit `verifySecretKey`). */
export interface SecretKeyChecksTable {
  purpose: string;
  check_value: string;
}

/** One datapoint (and table row, '' for a map set) of a device whose values are kept. */
export interface DeviceHistorySeriesTable {
  id: number;
  device_id: string;
  set_id: string;
  datapoint_id: string;
  row_key: string;
}

/** Every value collected: `value` for numbers and booleans (0/1), `text` for strings, both null when bad. */
export interface DeviceHistoryRawTable {
  series_id: number;
  /** Epoch ms. */
  at: number | string;
  value: number | null;
  text: string | null;
}

/** The numbers of one series in one minute (`at` its start, epoch ms). */
export interface DeviceHistoryMinuteTable {
  series_id: number;
  at: number | string;
  min: number;
  max: number;
  sum: number;
  count: number;
}

/** The OPC UA driver's application certificate (decision 0048): the private key sealed, never plain. */
export interface OpcuaClientCertificatesTable {
  /** `default`. */
  name: string;
  certificate_pem: string;
  /** `enc:v1:...` (SecretCipher, purpose `triad-templates:opcua-client-key`). */
  private_key_sealed: string;
  application_uri: string;
  created_at: number | string;
}

/** A server certificate trusted on first use, per endpoint URL. */
export interface OpcuaTrustedServersTable {
  endpoint: string;
  /** SHA-1, lower-case hex. */
  thumbprint: string;
  trusted_at: number | string;
}
