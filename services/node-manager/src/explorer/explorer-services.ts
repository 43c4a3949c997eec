import { atom, binary, decodeTerm, encodeTerm, tuple, tupleOf } from '@triad/erlang-dist';
import {
  DEFAULT_ETS_LIMIT,
  DEFAULT_PROCESS_LIMIT,
  MAX_ETS_LIMIT,
  MAX_PROCESS_LIMIT,
  type ProcessSortKey,
} from '../model/explorer-records.js';

/**
 * The explorers as WombatOAM's service routes name them (`GET /api/service/service-info/explorer/
 * node/{node_id}`, `POST /api/request/service_request/`), for its clients: the load-test harness
 * finds a service by `label` and starts it with `{id: serviceId, arguments}`.
 */
export const EXPLORER_SERVICES = Object.freeze({
  process_manager: {
    label: 'Process Manager',
    description: "The node's top processes by memory, reductions or message queue length.",
  },
  table_visualizer: { label: 'Table Visualizer', description: "The node's ETS tables, largest by memory first." },
});
export type ExplorerServiceName = keyof typeof EXPLORER_SERVICES;

function isServiceName(name: string): name is ExplorerServiceName {
  return Object.hasOwn(EXPLORER_SERVICES, name);
}

/** Longest `serviceId` read (the ids this service issues are about 70 characters). */
const MAX_SERVICE_ID_LENGTH = 512;

/**
 * A service id as WombatOAM forms them: base64 of the external term format of
 * `{node, <<NodeId>>, explorer, Name, undefined}` (WombatOAM puts a reference last).
 */
export function serviceIdOf(nodeId: string, name: ExplorerServiceName): string {
  return Buffer.from(
    encodeTerm(tuple(atom('node'), binary(nodeId), atom('explorer'), atom(name), atom('undefined'))),
  ).toString('base64');
}

/** The node and service a service id names; undefined for anything this service did not issue. */
export function parseServiceId(text: string): { nodeId: string; name: ExplorerServiceName } | undefined {
  if (text.length > MAX_SERVICE_ID_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  let parts;
  try {
    parts = tupleOf(decodeTerm(Buffer.from(text, 'base64')), 5);
  } catch {
    return undefined;
  }
  const [kind, node, area, name] = parts ?? [];
  if (kind?.type !== 'atom' || kind.name !== 'node' || node?.type !== 'binary') return undefined;
  if (area?.type !== 'atom' || area.name !== 'explorer' || name?.type !== 'atom' || !isServiceName(name.name))
    return undefined;
  return { nodeId: Buffer.from(node.bytes).toString('utf8'), name: name.name };
}

/** Arguments of a service request as WombatOAM's clients send them (strings, mostly). */
export type ServiceArguments = Readonly<Record<string, string | number>>;

/** A service request's arguments did not make sense; `message` says which and what is allowed. */
export class ServiceArgumentError extends Error {}

function limitOf(args: ServiceArguments, fallback: number, max: number): number {
  const raw = args['Limit'];
  if (raw === undefined || raw === '') return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new ServiceArgumentError(`Limit is a whole number from 1 to ${max}`);
  return limit;
}

/**
 * The Process Manager's `OrderBy` (`Memory`, `Reductions`, `Message Queue Length` and the like,
 * any case) and `Limit` (1 to 200, default 20). The other arguments WombatOAM's clients send
 * (`Interval`, `OrderDirection`, `Page`, `FilterText`) are accepted and not used: the list is
 * read once, largest first.
 * @throws ServiceArgumentError
 */
export function processManagerArguments(args: ServiceArguments): { sort: ProcessSortKey; limit: number } {
  const order = String(args['OrderBy'] ?? 'Memory').toLowerCase();
  let sort: ProcessSortKey;
  if (order.includes('reduction')) sort = 'reductions';
  else if (order.includes('queue') || order.includes('msg')) sort = 'message_queue_len';
  else if (order.includes('memory')) sort = 'memory';
  else throw new ServiceArgumentError('OrderBy is Memory, Reductions or Message Queue Length');
  return { sort, limit: limitOf(args, DEFAULT_PROCESS_LIMIT, MAX_PROCESS_LIMIT) };
}

/** The Table Visualizer's `Limit` (1 to 1000, default 100); tables are ordered by memory whatever `OrderBy` says. */
export function tableVisualizerArguments(args: ServiceArguments): { limit: number } {
  return { limit: limitOf(args, DEFAULT_ETS_LIMIT, MAX_ETS_LIMIT) };
}
