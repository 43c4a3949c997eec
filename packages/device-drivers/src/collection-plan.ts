/**
 * Turns a template into what each of its drivers must do: per `originType`, the driver's
 * configuration and the datapoints to read, grouped by polling group (one request per group and
 * device), once at start (`singleQuery`), or by subscription. Table sets are read whole.
 */
import { isObject } from '@triad/common';
import type { DeviceTemplate } from '@triad/device-templates';
import type { PointRequest, ReadRequest, TableRequest } from './driver.js';
import { pollingPeriod } from './polling-group.js';

export interface DriverPlan {
  readonly originType: string;
  /** The template's `originTypes` entry for this driver, without `originType` (empty when it has none). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Polling groups, fastest first: `{pollingGroup, periodMs, request}`. */
  readonly polls: readonly PollPlan[];
  /** Read once when collection starts. */
  readonly once: ReadRequest;
  /** Values the device pushes. */
  readonly subscription: ReadRequest;
}

export interface PollPlan {
  readonly pollingGroup: string;
  readonly periodMs: number;
  readonly request: ReadRequest;
}

interface Builder {
  points: PointRequest[];
  tables: TableRequest[];
}

export function planCollection(template: DeviceTemplate): DriverPlan[] {
  const byDriver = new Map<string, { polls: Map<string, Builder>; once: Builder; subscription: Builder }>();
  const driver = (originType: string) => {
    let entry = byDriver.get(originType);
    if (entry === undefined) {
      entry = { polls: new Map(), once: empty(), subscription: empty() };
      byDriver.set(originType, entry);
    }
    return entry;
  };
  const bucket = (point: PointRequest & { originTypeOf: string }): Builder => {
    const entry = driver(point.originTypeOf);
    if (point.receiveMode === 'singleQuery') return entry.once;
    if (point.receiveMode === 'subscription') return entry.subscription;
    let group = entry.polls.get(point.pollingGroup);
    if (group === undefined) entry.polls.set(point.pollingGroup, (group = empty()));
    return group;
  };

  for (const set of template.datapointSets ?? []) {
    const points: (PointRequest & { originTypeOf: string })[] = [];
    for (const datapoint of set.datapoints) {
      const address = datapoint.addressConfig;
      const id = datapoint.commonConfig?.datapointId;
      if (address === undefined || id === undefined) continue;
      if (address.originAccessType === 'write-only' || address.originAccessType === 'not-accessible') continue;
      points.push({
        datapointSetId: set.datapointSetId,
        datapointId: id,
        originAddress: address.originAddress,
        originDataType: address.originDataType,
        dataType: address.dataType,
        receiveMode: address.receiveMode,
        pollingGroup: address.pollingGroup,
        originTypeOf: address.originType,
      });
    }
    if (set.datapointSetType === 'map') {
      for (const point of points) bucket(point).points.push(strip(point));
      continue;
    }
    // A table is read whole, once per driver, at the fastest polling group among its columns.
    const byOrigin = new Map<string, (PointRequest & { originTypeOf: string })[]>();
    for (const point of points) byOrigin.set(point.originTypeOf, [...(byOrigin.get(point.originTypeOf) ?? []), point]);
    for (const columns of byOrigin.values()) {
      const fastest = columns.reduce((a, b) => (fastestOf(a, b) === a ? a : b));
      bucket(fastest).tables.push({
        datapointSetId: set.datapointSetId,
        rootAddress: set.tableAddress?.rootAddress ?? '',
        indexes: set.tableAddress?.indexes ?? [],
        dynamic: set.datapointSetType === 'tableDynamic',
        columns: columns.map(strip),
      });
    }
  }

  const configs = new Map<string, Record<string, unknown>>();
  for (const entry of template.originTypes ?? []) {
    if (!isObject(entry) || typeof entry.originType !== 'string') continue;
    const { originType, ...rest } = entry;
    configs.set(originType, rest);
    driver(originType);
  }
  return [...byDriver].map(([originType, entry]) => ({
    originType,
    config: configs.get(originType) ?? {},
    polls: [...entry.polls]
      .map(([pollingGroup, request]) => ({ pollingGroup, periodMs: pollingPeriod(pollingGroup), request }))
      .sort((a, b) => a.periodMs - b.periodMs),
    once: entry.once,
    subscription: entry.subscription,
  }));
}

/** True when the plan asks nothing of its driver. */
export function isEmptyRequest(request: ReadRequest): boolean {
  return request.points.length === 0 && request.tables.length === 0;
}

function empty(): Builder {
  return { points: [], tables: [] };
}

function strip(point: PointRequest & { originTypeOf?: string }): PointRequest {
  const { originTypeOf: _ignored, ...rest } = point;
  return rest;
}

function fastestOf<T extends PointRequest>(a: T, b: T): T {
  if (a.receiveMode !== 'polling') return b.receiveMode === 'polling' ? b : a;
  if (b.receiveMode !== 'polling') return a;
  return pollingPeriod(a.pollingGroup) <= pollingPeriod(b.pollingGroup) ? a : b;
}
