import type { DeviceTemplate } from '@triad/device-templates';

/**
 * The parsed document of a stored template version. The registry stores only documents that
 * passed validation, so the JSON is a `DeviceTemplate`: this is the one place that says so.
 */
export function templateDocument(record: { readonly documentJson: string }): DeviceTemplate {
  return JSON.parse(record.documentJson) as DeviceTemplate;
}
