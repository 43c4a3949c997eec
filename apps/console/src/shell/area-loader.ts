import type { ComponentType } from 'preact';
import type { AreaProps } from './area-props.js';
import type { ConsoleArea } from './console-config.js';

/** What an area's `index.tsx` exports (the contract in apps/console/README.md). */
export interface AreaModule {
  readonly default: ComponentType<AreaProps>;
}

// One lazy chunk per area: a service's page loads only its own area's code (the template editor
// never reaches the node manager's page). A glob, so an area folder without index.tsx yet still builds.
const modules = import.meta.glob<AreaModule>('../areas/*/index.tsx');

/** Loads the area's module; rejects when the area has no `index.tsx` in this build. */
export function loadArea(area: ConsoleArea): Promise<AreaModule> {
  const load = modules[`../areas/${area}/index.tsx`];
  return load ? load() : Promise.reject(new Error(`the ${area} area is not part of this build`));
}
