import { isObject } from '@triad/common';
import type { DocumentPath } from '../problem.js';

/** A parsed JSON object (never an array or null). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** The value when it is a string, otherwise undefined. */
export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The datapointSetType values that make a set a table. */
const TABLE_TYPES: ReadonlySet<string> = new Set(['tableStatic', 'tableDynamic']);

/** One datapoint of a set, as found in the document; fields of the wrong type read as undefined. */
export interface DatapointEntry {
  readonly set: SetEntry;
  readonly path: DocumentPath;
  readonly value: JsonObject;
  /** `commonConfig.datapointId` when it is a string. */
  readonly id: string | undefined;
  /** `commonConfig.datapointType` when it is a string. */
  readonly datapointType: string | undefined;
}

/** One datapoint set, as found in the document. */
export interface SetEntry {
  readonly path: DocumentPath;
  readonly value: JsonObject;
  /** `datapointSetId` when it is a string. */
  readonly id: string | undefined;
  /** `datapointSetType` when it is a string. */
  readonly type: string | undefined;
  /** True for `tableStatic` and `tableDynamic`. */
  readonly isTable: boolean;
  /** The datapoints that are objects, in document order. */
  readonly datapoints: readonly DatapointEntry[];
  /** The first datapoint carrying each datapointId. */
  readonly byId: ReadonlyMap<string, DatapointEntry>;
}

/**
 * The template reduced to what the semantic checks cross-reference, built in one pass.
 * Every part of the document with the wrong shape is skipped, so building never throws.
 */
export interface TemplateModel {
  /** The root object, or an empty object when the document is not an object. */
  readonly root: JsonObject;
  readonly sets: readonly SetEntry[];
  /** The first set carrying each datapointSetId. */
  readonly setsById: ReadonlyMap<string, SetEntry>;
  /** Every datapoint of every set, in document order. */
  readonly datapoints: readonly DatapointEntry[];
}

/** Walks `datapointSets[].datapoints[]` once and indexes sets and datapoints by id. */
export function buildTemplateModel(value: unknown): TemplateModel {
  const root: JsonObject = isObject(value) ? value : {};
  const sets: SetEntry[] = [];
  const setsById = new Map<string, SetEntry>();
  const datapoints: DatapointEntry[] = [];
  const rawSets = root['datapointSets'];
  if (Array.isArray(rawSets)) {
    for (let s = 0; s < rawSets.length; s++) {
      const setValue: unknown = rawSets[s];
      if (!isObject(setValue)) continue;
      const type = stringOrUndefined(setValue['datapointSetType']);
      const setDatapoints: DatapointEntry[] = [];
      const byId = new Map<string, DatapointEntry>();
      const set: SetEntry = {
        path: ['datapointSets', s],
        value: setValue,
        id: stringOrUndefined(setValue['datapointSetId']),
        type,
        isTable: type !== undefined && TABLE_TYPES.has(type),
        datapoints: setDatapoints,
        byId,
      };
      const rawDatapoints = setValue['datapoints'];
      if (Array.isArray(rawDatapoints)) {
        for (let d = 0; d < rawDatapoints.length; d++) {
          const dp: unknown = rawDatapoints[d];
          if (!isObject(dp)) continue;
          const common = dp['commonConfig'];
          const entry: DatapointEntry = {
            set,
            path: ['datapointSets', s, 'datapoints', d],
            value: dp,
            id: isObject(common) ? stringOrUndefined(common['datapointId']) : undefined,
            datapointType: isObject(common) ? stringOrUndefined(common['datapointType']) : undefined,
          };
          setDatapoints.push(entry);
          datapoints.push(entry);
          if (entry.id !== undefined && !byId.has(entry.id)) byId.set(entry.id, entry);
        }
      }
      sets.push(set);
      if (set.id !== undefined && !setsById.has(set.id)) setsById.set(set.id, set);
    }
  }
  return { root, sets, setsById, datapoints };
}

/** The array at `key` of `object`, or an empty array when it is missing or not an array. */
export function arrayAt(object: JsonObject, key: string): readonly unknown[] {
  const value = object[key];
  return Array.isArray(value) ? value : [];
}
