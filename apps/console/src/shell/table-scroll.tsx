import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Which sides of a table's box hide columns that scrolling would show. */
interface Overflow {
  readonly before: boolean;
  readonly after: boolean;
}

const NONE: Overflow = { before: false, after: false };

/**
 * The box a table scrolls sideways in when it is wider than the page (a phone), so the page
 * itself never does. While the table overflows, the box is a named, focusable region (arrow keys
 * scroll it, CONTRIBUTING's accessibility checks want scrollable regions reachable by keyboard),
 * shades the edge where columns are hidden and says above the table that it scrolls; while the
 * table fits it is a plain box, with no extra tab stop.
 */
export function TableScroll(props: {
  /** Id of the element that names the table (its caption or a heading): it names the region too. */
  readonly labelledBy: string | undefined;
  readonly children: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(NONE);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    let boxWidth = -1;
    const measure = () => {
      // The caption keeps to the visible width of the box (styles.css), so it never scrolls out of
      // sight. Set only when it changed: each set would have the page laid out again.
      if (element.clientWidth !== boxWidth) {
        boxWidth = element.clientWidth;
        element.style.setProperty('--table-box-width', `${boxWidth}px`);
      }
      const hidden = element.scrollWidth - element.clientWidth;
      const next =
        hidden > 1
          ? { before: element.scrollLeft > 1, after: element.scrollLeft < hidden - 1 }
          : { before: false, after: false };
      setOverflow((old) => (old.before === next.before && old.after === next.after ? old : next));
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    // The table grows with its rows (live lists) without the box changing size.
    if (element.firstElementChild) resized.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      resized.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);
  const scrolls = overflow.before || overflow.after;
  return (
    <>
      {scrolls ? (
        <p class="table-scroll-hint" aria-hidden="true">
          {overflow.after ? 'More columns: scroll sideways →' : '← More columns to the left'}
        </p>
      ) : null}
      <div
        ref={box}
        class="table-wrap"
        data-more-before={overflow.before ? '' : undefined}
        data-more-after={overflow.after ? '' : undefined}
        role={scrolls ? 'region' : undefined}
        aria-labelledby={scrolls ? props.labelledBy : undefined}
        tabIndex={scrolls ? 0 : undefined}
      >
        {props.children}
      </div>
    </>
  );
}
