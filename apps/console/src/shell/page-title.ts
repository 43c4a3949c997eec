import { useEffect } from 'preact/hooks';

/** Sets `document.title` to "`title` · Triad" while the calling page is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Triad`;
  }, [title]);
}
