import { kitProblems } from '@triad/service-kit';
import type { DeviceCommands } from '../../commands/device-commands.js';
import { templatesProblems } from '../../errors.js';
import {
  autoStep,
  MAX_HISTORY_POINTS,
  planHistoryQuery,
  type HistoryBucket,
  type HistoryPoint,
} from '../../model/device-history.js';
import { templateDocument } from '../../model/template-document.js';
import { presentHistory } from '../../presenters/history-presenter.js';
import type { DeviceHistoryRepository } from '../../repositories/device-history-repository.js';
import type { TemplateRepository } from '../../repositories/template-repository.js';

/** Default range when `from` is absent: 24 h before `to`. */
const DEFAULT_RANGE_MS = 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface HistoryQueryInput {
  readonly set: string;
  readonly datapoint: string;
  readonly row?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly step?: string | undefined;
}

export interface DeviceHistoryOptions {
  readonly commands: Pick<DeviceCommands, 'find'>;
  readonly templates: Pick<TemplateRepository, 'find'>;
  readonly history: Pick<DeviceHistoryRepository, 'seriesId' | 'points' | 'buckets'>;
  readonly rawRetentionMs: number;
  readonly now?: () => number;
}

/**
 * Answers `GET /devices/{id}/history`: checks the device and that its template has the datapoint,
 * plans the query (`planHistoryQuery`) and reads raw points or buckets; raw points past
 * `MAX_HISTORY_POINTS` turn into buckets of the shortest step that fits.
 *
 * @throws ProblemError TPL_ERR_DEVICE_NOT_FOUND, TPL_ERR_DEVICE_DATAPOINT_NOT_FOUND,
 *   TPL_ERR_HISTORY_QUERY_INVALID, SVC_ERR_BAD_REQUEST (a malformed time).
 */
export async function readDeviceHistory(id: string, query: HistoryQueryInput, options: DeviceHistoryOptions) {
  const device = await options.commands.find(id);
  const record = await options.templates.find(device.templateId, device.templateVersion);
  const set = record && templateDocument(record).datapointSets.find((s) => s.datapointSetId === query.set);
  if (!set?.datapoints.some((d) => d.commonConfig?.datapointId === query.datapoint))
    throw templatesProblems.create(
      'TPL_ERR_DEVICE_DATAPOINT_NOT_FOUND',
      `The template ${device.templateId} ${device.templateVersion} of device ${id} has no datapoint ` +
        `${query.datapoint} in a datapointSet ${query.set}: see its datapoints in GET /devices/${id}/values`,
      { set: query.set, datapoint: query.datapoint },
    );
  const now = (options.now ?? Date.now)();
  const to = query.to === undefined ? now : parseTime('to', query.to);
  const from = query.from === undefined ? to - DEFAULT_RANGE_MS : parseTime('from', query.from);
  const step = query.step === undefined ? undefined : parseStep(query.step);
  const plan = planHistoryQuery({ from, to, step, now, rawRetentionMs: options.rawRetentionMs });
  if ('problem' in plan) throw templatesProblems.create('TPL_ERR_HISTORY_QUERY_INVALID', plan.problem);
  const row = query.row ?? null;
  const seriesId = await options.history.seriesId({
    deviceId: id,
    setId: query.set,
    datapointId: query.datapoint,
    row: row ?? '',
  });
  let points: HistoryPoint[] = [];
  let buckets: HistoryBucket[] = [];
  let chosen = plan.step;
  if (seriesId !== undefined && plan.step === 0) {
    points = await options.history.points(seriesId, from, to, MAX_HISTORY_POINTS + 1);
    if (points.length > MAX_HISTORY_POINTS) {
      points = [];
      chosen = autoStep(from, to, plan.source);
    }
  }
  if (seriesId !== undefined && chosen > 0)
    buckets = await options.history.buckets(seriesId, plan.source, from, to, chosen);
  return presentHistory({
    deviceId: id,
    set: query.set,
    datapoint: query.datapoint,
    row,
    from,
    to,
    resolution: plan.source,
    step: chosen,
    points,
    buckets,
  });
}

function parseTime(name: string, text: string): number {
  const at = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(at))
    throw kitProblems.create('SVC_ERR_BAD_REQUEST', `${name} must be ISO 8601 or epoch milliseconds, not ${text}`);
  return at;
}

function parseStep(text: string): number {
  const [, digits = '', unit = 'ms'] = /^(\d+)([a-z]*)$/.exec(text) ?? [];
  const ms = Number(digits) * (UNIT_MS[unit] ?? 1);
  if (ms < 1000)
    throw templatesProblems.create(
      'TPL_ERR_HISTORY_QUERY_INVALID',
      `step ${text} is shorter than 1 s: give 1s or more`,
    );
  return ms;
}
