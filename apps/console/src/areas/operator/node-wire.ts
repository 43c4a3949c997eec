/**
 * The node manager's replies as the operator area reads them, named from the types generated from
 * the service's OpenAPI document (`npm run generate`). Most of its reply schemas list properties
 * without `required`; `Present` states which members the console relies on (the presenters always
 * send them).
 */
import type { paths } from '../../generated/node-manager-api.js';
import type { Present, ReplyBody } from '../../shell/api-types.js';

/** A node as the node manager's replies describe it (every member optional in the schema). */
type ListedNode = ReplyBody<paths['/api/topo/node']['get']>[number];

/**
 * A node as `GET /api/topo/node` lists it (the fields the console shows). `state` is `UP`, `DOWN`
 * or `STOPPED` (`ListedNode['state']`), typed as a string because the pages set it from live
 * updates.
 */
export type NodeWire = Present<ListedNode, 'id' | 'name' | 'node_family_id' | 'otp_release' | 'uptime_ms'> & {
  readonly state: string;
};

/** A node family as `GET /api/topo/node-family` lists it. */
export type FamilyWire = Present<ReplyBody<paths['/api/topo/node-family']['get']>[number], 'id' | 'name'>;

type ListedAlarm = NonNullable<ReplyBody<paths['/api/alarm']['get']>['alarms']>[number];

/**
 * An alarm as the alarm lists give it. `state` is `new` or `acknowledged` (`ListedAlarm['state']`),
 * typed as a string because live updates set it.
 */
export type AlarmWire = Present<
  ListedAlarm,
  'alarmId' | 'eventTime' | 'eventId' | 'severity' | 'additionalInformation' | 'rawSrc'
> & {
  readonly state: string;
  readonly src: Present<NonNullable<ListedAlarm['src']>, 'nodeId' | 'nodeName' | 'custom'>;
  readonly comments: readonly Present<NonNullable<ListedAlarm['comments']>[number], 'user' | 'time' | 'text'>[];
  /** Who acknowledged the alarm and when (ms since the epoch); null while it is new. */
  readonly ackInfo?: ListedAlarm['ackInfo'];
};

/** `3 d 4 h`, `5 h 12 min`, `42 s`: an uptime a person reads at a glance. */
export function formatUptime(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** A node as `GET /api/topo/node/{id}` gives it, with the facts the node page shows (`total_memory` in bytes). */
export type NodeDetailWire = NodeWire &
  Present<ReplyBody<paths['/api/topo/node/{node_id}']['get']>, 'erts_version' | 'process_count' | 'total_memory'>;

type NodeInfoReply = ReplyBody<paths['/api/topo/node/{node_id}/info']['get']>;

/** `GET /api/topo/node/{id}/info`: the node and the applications it runs. */
export interface NodeInfoWire {
  readonly node: NodeDetailWire;
  readonly applications: NodeInfoReply['applications'];
}

/** A log entry as `GET /api/logs/node/{id}` lists it; `time` in ms since the epoch. */
export type NodeLogWire = ReplyBody<paths['/api/logs/node/{node_id}']['get']>['logs'][number];
