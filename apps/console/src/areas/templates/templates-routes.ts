/**
 * The templates area's places as same-origin paths on `/` (the service's API owns `/templates/...`,
 * so the area's pages live in the query): `/` is the registry, `/?edit=<id>&version=<version>` the
 * editor on one stored version.
 */

export type TemplatesRoute =
  | { readonly page: 'registry' }
  | { readonly page: 'editor'; readonly templateId: string; readonly templateVersion: string };

/** The path of the editor on one version. */
export function editorPath(templateId: string, templateVersion: string): string {
  return `/?${new URLSearchParams({ edit: templateId, version: templateVersion }).toString()}`;
}

/** The path of the registry. */
export const REGISTRY_PATH = '/';

/** The route a `pathname + search` names; anything else is the registry. */
export function parseTemplatesPath(path: string): TemplatesRoute {
  const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
  const templateId = query.get('edit');
  const templateVersion = query.get('version');
  if (!templateId || !templateVersion) return { page: 'registry' };
  return { page: 'editor', templateId, templateVersion };
}
