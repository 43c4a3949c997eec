/**
 * The explorer's replies (`/api/explorer/node/<id>/...`) as the node page reads them, named from
 * the types generated from the node manager's OpenAPI document.
 */
import type { paths } from '../../generated/node-manager-api.js';
import type { ReplyBody } from '../../shell/api-types.js';

/** `GET /api/explorer/node/{node_id}/processes`: the process count and the top processes. */
export type TopProcessesWire = ReplyBody<paths['/api/explorer/node/{node_id}/processes']['get']>;
/** One process of the top list. */
export type ProcessSummaryWire = TopProcessesWire['processes'][number];
/** `GET /api/explorer/node/{node_id}/processes/{pid}`. */
export type ProcessDetailsWire = ReplyBody<paths['/api/explorer/node/{node_id}/processes/{pid}']['get']>;
/** `GET /api/explorer/node/{node_id}/ets`. */
export type EtsTablesWire = ReplyBody<paths['/api/explorer/node/{node_id}/ets']['get']>;
export type EtsTableWire = EtsTablesWire['tables'][number];

/** The orders the top list comes in, as the service names them, with their labels. */
export const PROCESS_SORTS = [
  { id: 'memory', label: 'Memory' },
  { id: 'reductions', label: 'Reductions' },
  { id: 'message_queue_len', label: 'Message queue' },
] as const;
export type ProcessSort = (typeof PROCESS_SORTS)[number]['id'];

/** The path of a top list read: `limit` processes in `sort` order. */
export function topProcessesPath(nodeId: string, sort: ProcessSort, limit: number): string {
  return `/api/explorer/node/${encodeURIComponent(nodeId)}/processes?sort=${sort}&limit=${limit}`;
}

/** The path of one process's details (`<0.93.0>` encoded). */
export function processPath(nodeId: string, pid: string): string {
  return `/api/explorer/node/${encodeURIComponent(nodeId)}/processes/${encodeURIComponent(pid)}`;
}

/** A process as a person names it: its registered name, else its pid. */
export function processLabel(process: Pick<ProcessSummaryWire, 'pid' | 'registered_name'>): string {
  return process.registered_name ?? process.pid;
}
