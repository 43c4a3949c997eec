import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { blockHeight, blocksToRender } from './block-window.js';

/** Row height assumed before any row was measured, in px (a row with its action buttons). */
const FALLBACK_ROW_PX = 48;

/** What `useBlockWindow` gives the table that renders blocks of rows. */
export interface BlockWindow {
  /** The blocks to render with their rows; every other block is a placeholder of `height`. */
  readonly shown: readonly number[];
  /** The stable ref callback of a block's element (`<tbody data-block>`), rendered or placeholder. */
  readonly ref: (block: number) => (element: HTMLElement | null) => void;
  /** The placeholder height of a block of `rows` rows, in px. */
  readonly height: (block: number, rows: number) => number;
  /** Put on the table: keeps the focused block and its neighbours rendered. */
  readonly onFocusIn: (event: FocusEvent) => void;
}

/**
 * Renders only the blocks of a long table that are within half a screen of the viewport (an
 * IntersectionObserver watches every block's element) or next to the focused one; left-out
 * blocks keep their measured height, so the scroll bar and position stay true.
 */
export function useBlockWindow(blocks: number): BlockWindow {
  const nearNow = useRef(new Set<number>([0]));
  const [near, setNear] = useState<ReadonlySet<number>>(nearNow.current);
  const [focused, setFocused] = useState<number | undefined>();
  const elements = useRef(new Map<number, HTMLElement>());
  const refs = useRef(new Map<number, (element: HTMLElement | null) => void>());
  const measured = useRef(new Map<number, { px: number; rows: number }>());
  const observer = useRef<IntersectionObserver | undefined>(undefined);
  const sizes = useRef<ResizeObserver | undefined>(undefined);
  useEffect(() => {
    const io = new IntersectionObserver(
      (entries) => {
        const next = new Set(nearNow.current);
        for (const entry of entries) {
          if (!(entry.target instanceof HTMLElement)) continue;
          const block = Number(entry.target.dataset.block);
          if (entry.isIntersecting) next.add(block);
          else next.delete(block);
        }
        nearNow.current = next;
        setNear(next);
      },
      { rootMargin: '50% 0px' },
    );
    // The height of every block drawn with its rows, read after the browser's own layout: asking
    // for it during a render (getBoundingClientRect) would force a second layout per update.
    const ro = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const element = entry.target;
        if (!(element instanceof HTMLTableSectionElement) || element.dataset.placeholder !== undefined) continue;
        const px = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
        measured.current.set(Number(element.dataset.block), { px, rows: element.rows.length });
      }
    });
    observer.current = io;
    sizes.current = ro;
    for (const element of elements.current.values()) {
      io.observe(element);
      ro.observe(element);
    }
    return () => {
      io.disconnect();
      ro.disconnect();
    };
  }, []);
  const ref = useCallback((block: number) => {
    let callback = refs.current.get(block);
    if (!callback) {
      callback = (element) => {
        const old = elements.current.get(block);
        if (old) {
          observer.current?.unobserve(old);
          sizes.current?.unobserve(old);
        }
        if (element) {
          elements.current.set(block, element);
          observer.current?.observe(element);
          sizes.current?.observe(element);
        } else elements.current.delete(block);
      };
      refs.current.set(block, callback);
    }
    return callback;
  }, []);
  const height = useCallback((block: number, rows: number) => {
    let px = 0;
    let count = 0;
    for (const m of measured.current.values()) {
      px += m.px;
      count += m.rows;
    }
    return blockHeight(rows, measured.current.get(block), count > 0 ? px / count : undefined, FALLBACK_ROW_PX);
  }, []);
  const onFocusIn = useCallback((event: FocusEvent) => {
    const section = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-block]') : null;
    if (section) setFocused(Number(section.dataset.block));
  }, []);
  return { shown: blocksToRender(near, focused, blocks), ref, height, onFocusIn };
}
