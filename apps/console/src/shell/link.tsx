import type { ComponentChildren } from 'preact';
import { followLink } from './router.js';

/** A same-origin link that navigates without a reload. */
export function Link(props: {
  readonly href: string;
  readonly children: ComponentChildren;
  readonly current?: boolean;
  readonly class?: string;
}) {
  return (
    <a href={props.href} class={props.class} aria-current={props.current ? 'page' : undefined} onClick={followLink}>
      {props.children}
    </a>
  );
}
