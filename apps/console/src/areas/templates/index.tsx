/**
 * The templates area (template service): the registry and the editor. The shell renders it inside
 * `<main>` (apps/console/README.md); it talks only to its own service, same origin.
 */
import type { AreaProps } from '../../shell/area-props.js';
import { EditorPage } from './editor-page.js';
import { RegistryPage } from './registry-page.js';
import { parseTemplatesPath } from './templates-routes.js';
import './templates-area.css';

/** The area's root component: the page its path names. */
export default function TemplatesArea({ path }: AreaProps) {
  const route = parseTemplatesPath(path);
  return route.page === 'editor' ? (
    <EditorPage key={`${route.templateId}/${route.templateVersion}`} {...route} />
  ) : (
    <RegistryPage />
  );
}
