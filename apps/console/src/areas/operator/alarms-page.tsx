import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import { usePageTitle } from '../../shell/page-title.js';
import { AlarmFilters } from './alarm-filters.js';
import { alarmPageUrl, alarmViewPath, parseAlarmView } from './alarm-query.js';
import type { AlarmRowAction } from './alarm-row.js';
import { AlarmTable } from './alarm-table.js';
import type { Subscribe } from './live-updates.js';
import type { AlarmWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';
import './alarms-page.css';

/** Alarm frames that come closer together than this reload the page once. */
const LIVE_RELOAD_MS = 150;

/**
 * The active alarms, newest first, one page at a time as the API pages them: "Older alarms" asks
 * `previous/all?eid=` with the last alarm shown, "Newer alarms" goes back. Filters by source and
 * tag, 20 to 1000 rows per page; each row has Acknowledge / Unacknowledge / Clear / Comment. Alarm
 * frames on the WebSocket reload the page shown (and the source list), so changes made elsewhere
 * appear without a reload; an older page stays anchored at its event id. The filters live in the
 * address (`/alarms?source=&tag=&rows=`), so a filtered list can be bookmarked and shared.
 */
export function AlarmsPage(props: {
  readonly client: OperatorClient;
  readonly username: string;
  readonly subscribe: Subscribe;
  /** The console address: its query holds the filters (`parseAlarmView`). */
  readonly path: string;
  readonly navigate: (path: string) => void;
}) {
  usePageTitle('Alarms');
  const { client, username, subscribe, navigate } = props;
  const search = props.path.includes('?') ? props.path.slice(props.path.indexOf('?')) : '';
  const query = useMemo(() => parseAlarmView(search), [search]);
  const view = alarmViewPath(query);
  // The event ids the older pages start before (empty on the first page), for the view they were paged in.
  const [paging, setPaging] = useState<{ readonly view: string; readonly cursors: readonly string[] }>({
    view,
    cursors: [],
  });
  const cursors = paging.view === view ? paging.cursors : [];
  const setCursors = (next: readonly string[]) => setPaging({ view, cursors: next });
  // The page last loaded, with the URL it came from: the pager waits for it before moving on.
  const [shown, setShown] = useState<{ readonly url: string; readonly alarms: readonly AlarmWire[] } | undefined>();
  const [sources, setSources] = useState<readonly string[]>([]);
  const [tags, setTags] = useState<readonly string[]>([]);
  const [message, setMessage] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const url = alarmPageUrl(query, cursors[cursors.length - 1]);
  // Only the newest request may fill the table: an older reply can arrive after a filter change.
  const latest = useRef(0);
  const load = useCallback(() => {
    const ticket = ++latest.current;
    client
      .get<{ alarms: AlarmWire[] }>(url)
      .then((reply) => {
        if (ticket !== latest.current) return;
        setShown({ url, alarms: reply.alarms });
        setError(undefined);
      })
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client, url]);
  const loadSources = useCallback(() => {
    client
      .get<{ sources: string[] }>('/api/alarm/source')
      .then((reply) => setSources(reply.sources))
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client]);
  useEffect(load, [load]);
  useEffect(loadSources, [loadSources]);
  useEffect(() => {
    client
      .get<string[]>('/api/tags')
      .then(setTags)
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = subscribe((event) => {
      if ((event.type !== 'alarm' && event.type !== 'resync') || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        load();
        loadSources();
      }, LIVE_RELOAD_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [subscribe, load, loadSources]);

  const act = (alarm: AlarmWire, action: AlarmRowAction) => {
    const body: Record<string, string> = { userId: username, alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc };
    if (action === 'comment') {
      const text = prompt(`Comment on ${alarm.alarmId}`);
      if (!text) return;
      body.comment = text;
    }
    client
      .post(`/api/alarm/${action}`, body)
      .then(() => {
        setMessage(`${alarm.alarmId} on ${alarm.src.nodeName}: ${action} done.`);
        load();
      })
      .catch((reason: unknown) => setMessage(errorMessage(reason)));
  };
  const alarms = shown?.alarms;
  const loading = shown?.url !== url;
  // The pager's buttons stay focusable at the ends (aria-disabled): a disabled button would drop the focus.
  const older = alarms?.length === query.limit ? alarms[alarms.length - 1] : undefined;
  const first = cursors.length * query.limit + 1;
  const filtered = query.source !== undefined || query.tag !== undefined;
  return (
    <>
      <h1>Alarms</h1>
      <AlarmFilters query={query} sources={sources} tags={tags} onChange={(next) => navigate(alarmViewPath(next))} />
      <p role="status">{message}</p>
      <ErrorAlert message={error} />
      {alarms === undefined ? (
        <p>Loading alarms…</p>
      ) : alarms.length === 0 ? (
        <p>{cursors.length > 0 ? 'No older alarms.' : filtered ? 'No active alarms match.' : 'No active alarms.'}</p>
      ) : (
        <AlarmTable alarms={alarms} onAction={act} />
      )}
      <nav class="alarm-pager" aria-label="Alarm pages">
        <button
          type="button"
          aria-disabled={cursors.length === 0}
          onClick={() => !loading && setCursors(cursors.slice(0, -1))}
        >
          Newer alarms
        </button>
        <p aria-live="polite">
          {loading
            ? 'Loading…'
            : `Page ${cursors.length + 1}` +
              (alarms && alarms.length > 0 ? `: alarms ${first}–${first + alarms.length - 1}` : '')}
        </p>
        <button
          type="button"
          aria-disabled={!older}
          onClick={() => !loading && older && setCursors([...cursors, older.eventId])}
        >
          Older alarms
        </button>
      </nav>
    </>
  );
}
