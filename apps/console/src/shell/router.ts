import { useEffect, useState } from 'preact/hooks';

const CHANGE = 'triad:navigate';

/** Goes to `path` (same origin) without a reload; every `usePath` re-renders. */
export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
  window.scrollTo(0, 0);
}

/** The current `location.pathname + search`, updated on `navigate` and on back/forward. */
export function usePath(): string {
  const [path, setPath] = useState(() => location.pathname + location.search);
  useEffect(() => {
    const update = () => setPath(location.pathname + location.search);
    window.addEventListener(CHANGE, update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener(CHANGE, update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/**
 * Click handler for same-origin links: a plain left click navigates client-side; modified
 * clicks (new tab, download) keep the browser's behaviour.
 */
export function followLink(event: MouseEvent): void {
  const { currentTarget, target } = event;
  const anchor =
    currentTarget instanceof HTMLAnchorElement ? currentTarget : target instanceof Element ? target.closest('a') : null;
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.origin !== location.origin) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
