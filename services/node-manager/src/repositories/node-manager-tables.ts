import type { Generated } from 'kysely';

/** Kysely view of the node manager's tables (see `migrations/`). Times are ms since the epoch. */
export interface NodeManagerDatabase {
  nm_users: UsersTable;
  nm_front_pages: FrontPagesTable;
  nm_node_families: NodeFamiliesTable;
  nm_nodes: NodesTable;
  nm_plugins: PluginsTable;
  nm_alarms: AlarmsTable;
  nm_alarm_tags: AlarmTagsTable;
  nm_bookmarks: BookmarksTable;
  nm_custom_tags: CustomTagsTable;
  nm_crash_logs: CrashLogsTable;
  nm_node_logs: NodeLogsTable;
  nm_service_runs: ServiceRunsTable;
  nm_instances: InstancesTable;
  nm_work_leases: WorkLeasesTable;
  nm_ws_passes: WsPassesTable;
  nm_node_facts: NodeFactsTable;
  nm_secret_key_checks: SecretKeyChecksTable;
  nm_notification_channels: NotificationChannelsTable;
  nm_notification_subscriptions: NotificationSubscriptionsTable;
  nm_notifications: NotificationsTable;
  nm_notification_attempts: NotificationAttemptsTable;
}

/** PostgreSQL returns `bigint` as a string; SQLite as a number. */
type BigIntColumn = number | string;

export interface UsersTable {
  username: string;
  /** `scrypt$N$r$p$salt$hash` (see auth/password-hasher.ts). */
  password_hash: string;
  role: string;
  rights_json: string;
  /** JSON array of tags, or the JSON string `"all"`. */
  tags_json: string;
  created_at: BigIntColumn;
}

export interface FrontPagesTable {
  name: string;
  owner: string;
  content_json: string;
}

export interface NodeFamiliesTable {
  id: string;
  name: string;
  description_json: string;
  node_selection: string;
  bootstrap_strategy: string;
  bootstrap_strategy_opts_json: string;
  neighbors_json: string;
  plugins_opts_json: string;
  deleted: number;
  created_at: BigIntColumn;
  /** 1: nodes joining a member's cluster later are added (migration 0005). */
  discover_cluster: Generated<number>;
}

export interface NodesTable {
  id: string;
  name: string;
  node_family_id: string;
  host: string;
  /** Never logged, never returned by the API. */
  cookie: string;
  domain_id: string;
  state: string;
  tref: string;
  plugins_opts_json: string;
  deleted: number;
  created_at: BigIntColumn;
}

export interface PluginsTable {
  node_id: string;
  plugin_name: string;
  plugin_apps: string;
  plugin_state: string;
  position: number;
}

export interface AlarmsTable {
  event_us: BigIntColumn;
  alarm_id: string;
  node_id: string;
  node_name: string;
  custom: string;
  elarm_server: string;
  raw_src: string;
  alarm_type_json: string;
  severity: string;
  probable_cause: string;
  proposed_repair_action: string;
  description: string;
  additional_information: string;
  correlated_events: string;
  comments_json: string;
  trend_json: string;
  threshold_json: string;
  state: string;
  ack_user: string | null;
  ack_time: BigIntColumn | null;
  tags_json: string;
  active: number;
  raised_at: BigIntColumn;
  cleared_at: BigIntColumn | null;
  /** The alarm as the lists present it (JSON text); NULL until built (migration 0002). */
  list_json: string | null;
}

export interface AlarmTagsTable {
  event_us: BigIntColumn;
  tag: string;
}

export interface BookmarksTable {
  title: string;
  url: string;
  position: BigIntColumn;
}

export interface CustomTagsTable {
  tag: string;
}

export interface CrashLogsTable {
  id: string;
  node_id: string;
  recorded_at: BigIntColumn;
}

/** Log entries collected from nodes (migration 0005). */
export interface NodeLogsTable {
  id: string;
  node_id: string;
  /** The node's event time, µs since the epoch. */
  time_us: BigIntColumn;
  level: string;
  kind: string;
  text: string;
}

/** Service processes using the database now (migration 0005). */
export interface ServiceRunsTable {
  id: string;
  host: string;
  pid: number;
  started_at: BigIntColumn;
}

/** Live node-manager instances on a shared database (migration 0006, `workLeaseMigration`). */
export interface InstancesTable {
  instance_id: string;
  host: string;
  pid: number;
  started_at: Date;
  heartbeat_at: Date;
}

/** Which instance monitors a node (`item_id`), until when (migration 0006, `workLeaseMigration`). */
export interface WorkLeasesTable {
  item_id: string;
  owner: string;
  expires_at: Date;
}

/** WebSocket passes by their SHA-256, shared by the instances of one database (migration 0006). */
export interface WsPassesTable {
  pass_hash: string;
  username: string;
  /** `sessionStamp` of the user when the pass was issued; null in rows of releases before it. */
  stamp: string | null;
  /** ms since the epoch. */
  expires_at: BigIntColumn;
}

/** The latest facts of each UP node, as JSON (migration 0007). */
export interface NodeFactsTable {
  node_id: string;
  facts_json: string;
}

export interface SecretKeyChecksTable {
  /** The sealed secrets' purpose (`aad`), e.g. `triad-node-manager:node-cookie`. */
  purpose: string;
  /** `SecretCipher.checkValues()[0]` of the key they are sealed with. */
  check_value: string;
}

export interface NotificationChannelsTable {
  id: string;
  name: string;
  type: string;
  settings_json: string;
  /** The channel's secrets as one sealed JSON object (`ChannelSecrets`), or null when it has none. */
  secrets_sealed: string | null;
  /** JSON array of the names of the sealed fields. */
  secret_fields: string;
  created_at: BigIntColumn;
}

export interface NotificationSubscriptionsTable {
  id: string;
  username: string;
  channel_id: string;
  min_severity: string;
  tags_json: string;
  alarm_ids_json: string;
  node_family_id: string | null;
  created_at: BigIntColumn;
}

export interface NotificationsTable {
  id: string;
  channel_id: string;
  /** `<channel>:<action>:<alarm event µs>`: one notification per channel and alarm change. */
  dedup_key: string;
  alarm_json: string;
  status: string;
  attempts: number;
  next_attempt_at: BigIntColumn;
  claimed_by: string | null;
  claimed_until: BigIntColumn | null;
  created_at: BigIntColumn;
}

export interface NotificationAttemptsTable {
  id: string;
  notification_id: string;
  attempt: number;
  started_at: BigIntColumn;
  duration_ms: number;
  ok: number;
  status_code: number | null;
  reply: string | null;
  error: string | null;
}
