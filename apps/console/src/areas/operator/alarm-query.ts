/** The page sizes the alarm list offers; 1000 is the API's largest `limit`. */
export const ALARM_PAGE_SIZES: readonly number[] = Object.freeze([20, 50, 100, 1000]);

/** The page size without `rows=` in the address. */
export const DEFAULT_ALARM_PAGE_SIZE = 50;

/**
 * What the alarm list shows: a source (`src.custom`), a tag, how many alarms a page holds, and a
 * severity (the API has no severity filter: the console picks it from the page it got).
 */
export interface AlarmQuery {
  /** Only alarms of this source; undefined for every source. */
  readonly source: string | undefined;
  /** Only alarms with this tag; undefined for every tag (`tags=all`). */
  readonly tag: string | undefined;
  readonly limit: number;
  /** Only alarms of this severity on the page shown; undefined for every severity. */
  readonly severity?: string | undefined;
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

/**
 * The alarm view a console address asks for: `/alarms?source=<src>&tag=<tag>&rows=<n>&severity=<s>`, so a
 * filtered list can be bookmarked. Missing or empty values mean every source and tag; `rows`
 * other than one of `ALARM_PAGE_SIZES` means `DEFAULT_ALARM_PAGE_SIZE`.
 */
export function parseAlarmView(search: string): AlarmQuery {
  const params = new URLSearchParams(search);
  const rows = Number(params.get('rows'));
  return {
    source: params.get('source') || undefined,
    tag: params.get('tag') || undefined,
    limit: ALARM_PAGE_SIZES.includes(rows) ? rows : DEFAULT_ALARM_PAGE_SIZE,
    severity: params.get('severity') || undefined,
  };
}

/** The console address of an alarm view; `parseAlarmView` reads it back. */
export function alarmViewPath(query: AlarmQuery): string {
  const params = new URLSearchParams();
  if (query.source !== undefined) params.set('source', query.source);
  if (query.tag !== undefined) params.set('tag', query.tag);
  if (query.limit !== DEFAULT_ALARM_PAGE_SIZE) params.set('rows', String(query.limit));
  if (query.severity !== undefined) params.set('severity', query.severity);
  const search = params.toString();
  return search === '' ? '/alarms' : `/alarms?${search}`;
}
