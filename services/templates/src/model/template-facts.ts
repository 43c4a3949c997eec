import { isObject } from '@triad/common';
import type { RangerFilter, TemplateFacts } from './template-record.js';

/** A fact the registry needs that a document lacks (only reachable if validation let it through). */
export interface MissingFact {
  readonly path: string;
  readonly message: string;
}

/**
 * Reads the indexed facts from a validated document value. Returns the missing facts instead
 * when the document lacks a string templateId, templateVersion, description or origin.
 */
export function extractTemplateFacts(value: unknown): TemplateFacts | { readonly missing: readonly MissingFact[] } {
  const root = isObject(value) ? value : {};
  const missing: MissingFact[] = [];
  const required = (key: string): string => {
    const v = root[key];
    if (typeof v === 'string') return v;
    missing.push({ path: `/${key}`, message: `${key} must be a string` });
    return '';
  };
  const templateId = required('templateId');
  const templateVersion = required('templateVersion');
  const description = required('description');
  const origin = required('origin');
  if (missing.length > 0) return { missing };
  return {
    templateId,
    templateVersion,
    description,
    origin,
    alias: optionalString(root.alias),
    schemaVersion: optionalString(root.schemaVersion),
    originTypes: collectOriginTypes(root),
    rangerFilter: readFilter(root.rangerFilter),
  };
}

function collectOriginTypes(root: Record<string, unknown>): string[] {
  const found = new Set<string>();
  for (const entry of asArray(root.originTypes)) {
    if (isObject(entry) && typeof entry.originType === 'string') found.add(entry.originType);
  }
  for (const set of asArray(root.datapointSets)) {
    if (!isObject(set)) continue;
    for (const datapoint of asArray(set.datapoints)) {
      const address = isObject(datapoint) ? datapoint.addressConfig : undefined;
      if (isObject(address) && typeof address.originType === 'string') found.add(address.originType);
    }
  }
  return [...found].sort();
}

function readFilter(value: unknown): RangerFilter | null {
  if (!isObject(value)) return null;
  const filter: { deviceID?: string; vendorID?: string; description?: string } = {};
  if (typeof value.deviceID === 'string') filter.deviceID = value.deviceID;
  if (typeof value.vendorID === 'string') filter.vendorID = value.vendorID;
  if (typeof value.description === 'string') filter.description = value.description;
  return Object.keys(filter).length > 0 ? filter : null;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
