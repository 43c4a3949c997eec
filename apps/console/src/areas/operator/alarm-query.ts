/** The page sizes the alarm list offers; 1000 is the API's largest `limit`. */
export const ALARM_PAGE_SIZES: readonly number[] = Object.freeze([20, 50, 100, 1000]);

/** What the alarm list shows: a source (`src.custom`), a tag, and how many alarms a page holds. */
export interface AlarmQuery {
  /** Only alarms of this source; undefined for every source. */
  readonly source: string | undefined;
  /** Only alarms with this tag; undefined for every tag (`tags=all`). */
  readonly tag: string | undefined;
  readonly limit: number;
}

/**
 * The URL of one page of the alarm list, newest first, as the API pages it: the first page is
 * `/api/alarm`, a later one `/api/alarm/previous/all?eid=<event id of the last alarm shown>`.
 */
export function alarmPageUrl(query: AlarmQuery, before: string | undefined): string {
  const params = new URLSearchParams();
  if (before !== undefined) params.set('eid', before);
  params.set('limit', String(query.limit));
  params.set('tags', query.tag ?? 'all');
  if (query.source !== undefined) params.set('source', query.source);
  return `${before === undefined ? '/api/alarm' : '/api/alarm/previous/all'}?${params.toString()}`;
}
