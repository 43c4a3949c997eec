import { useEffect, useRef } from 'preact/hooks';

/**
 * A ref for an element (give it `tabIndex={-1}`) that takes the focus each time `key` changes to a
 * non-empty value while nothing has it, as after a keyboard user follows a link that the new page no
 * longer shows; otherwise the next Tab would start again at the top of the page.
 */
export function useFocusWhenLost<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (key === '') return;
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus();
  }, [key]);
  return ref;
}
