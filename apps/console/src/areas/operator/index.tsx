import type { AreaProps } from '../../shell/area-props.js';
import { usePageTitle } from '../../shell/page-title.js';

/** The operator area (node manager): sign-in, nodes, alarms, node pages. */
export default function OperatorArea(_props: AreaProps) {
  usePageTitle('Nodes and alarms');
  return <h1>Nodes and alarms</h1>;
}
