/**
 * The templates area's places as same-origin paths on `/` (the service's API owns `/templates/...`
 * and `/devices/...`, so the area's pages live in the query): `/` is the registry,
 * `/?edit=<id>&version=<version>` the editor on one stored version, `/?devices` the devices and
 * `/?device=<id>` one device.
 */

export type TemplatesRoute =
  | { readonly page: 'registry' }
  | { readonly page: 'editor'; readonly templateId: string; readonly templateVersion: string }
  | { readonly page: 'devices' }
  | { readonly page: 'device'; readonly deviceId: string };

/** The path of the editor on one version. */
export function editorPath(templateId: string, templateVersion: string): string {
  return `/?${new URLSearchParams({ edit: templateId, version: templateVersion }).toString()}`;
}

/** The path of the registry. */
export const REGISTRY_PATH = '/';

/** The path of the devices list. */
export const DEVICES_PATH = '/?devices';

/** The path of one device's page. */
export function devicePath(deviceId: string): string {
  return `/?${new URLSearchParams({ device: deviceId }).toString()}`;
}

/** The route a `pathname + search` names; anything else is the registry. */
export function parseTemplatesPath(path: string): TemplatesRoute {
  const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
  const deviceId = query.get('device');
  if (deviceId) return { page: 'device', deviceId };
  if (query.has('devices')) return { page: 'devices' };
  const templateId = query.get('edit');
  const templateVersion = query.get('version');
  if (!templateId || !templateVersion) return { page: 'registry' };
  return { page: 'editor', templateId, templateVersion };
}
