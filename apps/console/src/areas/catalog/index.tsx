import type { AreaProps } from '../../shell/area-props.js';
import { usePageTitle } from '../../shell/page-title.js';

/** The catalog area (content API): search, articles, shops. To be filled in (issue 14). */
export default function CatalogArea(_props: AreaProps) {
  usePageTitle('Catalog');
  return <h1>Catalog</h1>;
}
