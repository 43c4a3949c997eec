import type { ConsoleConfig } from './console-config.js';

/**
 * What the shell gives an area's component (the contract in apps/console/README.md): each
 * `areas/<area>/index.tsx` default-exports `(props: AreaProps) => JSX` and renders everything
 * inside `<main>`: its own sub-navigation, pages and sign-in.
 */
export interface AreaProps {
  readonly config: ConsoleConfig;
  /** `location.pathname + search`, updated on every client-side navigation. */
  readonly path: string;
  /** Same-origin navigation without reload (also `Link` and `followLink`). */
  readonly navigate: (path: string) => void;
}
