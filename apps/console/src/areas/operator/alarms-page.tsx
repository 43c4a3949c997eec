import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ColumnHeader } from '../../shell/column-headers.js';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import { usePageTitle } from '../../shell/page-title.js';
import { nextSort, sortRows, type SortState } from '../../shell/table-sort.js';
import { AlarmDialog, alarmsName, type AlarmDialogKind } from './alarm-dialog.js';
import { AlarmFilters } from './alarm-filters.js';
import { alarmPageUrl, alarmViewPath, parseAlarmView } from './alarm-query.js';
import { ALARM_SORT_VALUES, alarmKey, type AlarmRowAction } from './alarm-columns.js';
import { AlarmTable } from './alarm-table.js';
import type { Subscribe } from './live-updates.js';
import type { AlarmWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';
import './alarms-page.css';

/** Alarm frames that come closer together than this reload the page once. */
const LIVE_RELOAD_MS = 150;

/** The API pages alarms newest first; the page shown reads that way until a column is picked. */
const NEWEST_FIRST: SortState = { column: 'raised', direction: 'descending' };

/** Alarm actions sent at once when many alarms are selected. */
const PARALLEL_ACTIONS = 8;

/** Past tense of an action for the status line. */
const DONE: Readonly<Record<AlarmRowAction, string>> = {
  acknowledge: 'Acknowledged',
  unacknowledge: 'Unacknowledged',
  clear: 'Cleared',
  comment: 'Commented on',
};

/**
 * The active alarms, newest first, one page at a time as the API pages them: "Older alarms" asks
 * `previous/all?eid=` with the last alarm shown, "Newer alarms" goes back. Filters by source and
 * tag (the API's), and by severity (on the page shown), 20 to 1000 rows per page; the columns
 * sort the page shown. With the `write` right each row has Acknowledge / Unacknowledge / Clear /
 * Comment, and selected rows take them at once; Clear asks to confirm and Comment asks for the
 * text in the console's own dialog. Without it no action is offered. Alarm frames on the
 * WebSocket reload the page shown (and the source list), so changes made elsewhere appear without
 * a reload; an older page stays anchored at its event id. The filters live in the address
 * (`/alarms?source=&tag=&rows=&severity=`), so a filtered list can be bookmarked and shared.
 */
export function AlarmsPage(props: {
  readonly client: OperatorClient;
  readonly username: string;
  readonly subscribe: Subscribe;
  /** The console address: its query holds the filters (`parseAlarmView`). */
  readonly path: string;
  readonly navigate: (path: string) => void;
  /** Whether the user holds the `write` right the alarm actions need (undefined while asked). */
  readonly canWrite: boolean | undefined;
}) {
  usePageTitle('Alarms');
  const { client, username, subscribe, navigate } = props;
  const canWrite = props.canWrite === true;
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
  const [sort, setSort] = useState<SortState>(NEWEST_FIRST);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<{ kind: AlarmDialogKind; alarms: readonly AlarmWire[] } | undefined>();
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

  /** Runs `action` on every alarm (a few at a time), then says what happened and reloads. */
  const run = (targets: readonly AlarmWire[], action: AlarmRowAction, comment?: string) => {
    const refused: string[] = [];
    const queue = [...targets];
    const worker = async () => {
      for (let alarm = queue.shift(); alarm; alarm = queue.shift()) {
        const body: Record<string, string> = { userId: username, alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc };
        if (comment !== undefined) body.comment = comment;
        await client.post(`/api/alarm/${action}`, body).catch((reason: unknown) => refused.push(errorMessage(reason)));
      }
    };
    setMessage(undefined);
    void Promise.all(Array.from({ length: Math.min(PARALLEL_ACTIONS, targets.length) }, worker)).then(() => {
      const done = targets.length - refused.length;
      const what = done === targets.length ? alarmsName(targets) : `${done} of ${targets.length} alarms`;
      setMessage(
        done === 0
          ? `Nothing changed: ${refused[0] ?? ''}`
          : `${DONE[action]} ${what}.` + (refused.length > 0 ? ` ${refused.length} refused: ${refused[0]}` : ''),
      );
      if (targets.length > 1) setSelected(new Set());
      load();
    });
  };
  // The rows keep one onAction across renders (they redraw only when their alarm changes).
  const runRef = useRef(run);
  runRef.current = run;
  const onAction = useCallback((alarm: AlarmWire, action: AlarmRowAction) => {
    if (action === 'clear' || action === 'comment') setDialog({ kind: action, alarms: [alarm] });
    else runRef.current([alarm], action);
  }, []);
  const onSelect = useCallback((alarm: AlarmWire, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(alarmKey(alarm));
      else next.delete(alarmKey(alarm));
      return next;
    });
  }, []);
  const onSort = useCallback(
    (column: ColumnHeader) => setSort((current) => nextSort(current, column.id, column.firstDirection)),
    [],
  );
  const alarms = shown?.alarms;
  // The rows shown now, for "select every alarm shown" with a callback that stays the same.
  const visibleRef = useRef<readonly AlarmWire[] | undefined>(undefined);
  // The page as shown: the severity picked, in the order picked (the API's is newest first).
  const visible = useMemo(() => {
    const picked = query.severity === undefined ? alarms : alarms?.filter((a) => a.severity === query.severity);
    if (!picked) return undefined;
    // By time: the API's own order (event ids, finer than eventTime's seconds) or its reverse.
    if (sort.column === 'raised') return sort.direction === 'descending' ? picked : [...picked].reverse();
    const value = ALARM_SORT_VALUES[sort.column];
    return value ? sortRows(picked, value, sort.direction) : picked;
  }, [alarms, query.severity, sort]);
  visibleRef.current = visible;
  const onSelectAll = useCallback(
    (on: boolean) => setSelected(on ? new Set(visibleRef.current?.map(alarmKey)) : new Set()),
    [],
  );
  const chosen = useMemo(() => visible?.filter((a) => selected.has(alarmKey(a))) ?? [], [visible, selected]);
  const severities = useMemo(() => [...new Set(alarms?.map((a) => a.severity) ?? [])], [alarms]);
  const loading = shown?.url !== url;
  // The pager's buttons stay focusable at the ends (aria-disabled): a disabled button would drop the focus.
  const older = alarms?.length === query.limit ? alarms[alarms.length - 1] : undefined;
  const first = cursors.length * query.limit + 1;
  const filtered = query.source !== undefined || query.tag !== undefined || query.severity !== undefined;
  return (
    <>
      <h1>Alarms</h1>
      <AlarmFilters
        query={query}
        sources={sources}
        tags={tags}
        severities={severities}
        onChange={(next) => navigate(alarmViewPath(next))}
      />
      {canWrite ? (
        <div class="bulk-actions" role="group" aria-label="Selected alarms">
          <p>{chosen.length === 0 ? 'Select alarms to act on several at once.' : `${chosen.length} selected`}</p>
          <button
            type="button"
            class="primary"
            disabled={chosen.length === 0}
            onClick={() => run(chosen, 'acknowledge')}
          >
            Acknowledge selected
          </button>
          <button
            type="button"
            disabled={chosen.length === 0}
            onClick={() => setDialog({ kind: 'clear', alarms: chosen })}
          >
            Clear selected…
          </button>
          <button
            type="button"
            disabled={chosen.length === 0}
            onClick={() => setDialog({ kind: 'comment', alarms: chosen })}
          >
            Comment on selected…
          </button>
        </div>
      ) : props.canWrite === false ? (
        <p class="muted">You may read the alarms; acknowledging, clearing and commenting need the write right.</p>
      ) : null}
      <p role="status">{message}</p>
      <ErrorAlert message={error} />
      <AlarmTable
        alarms={visible}
        sort={sort}
        onSort={onSort}
        canWrite={canWrite}
        selected={selected}
        onSelect={onSelect}
        onSelectAll={onSelectAll}
        onAction={onAction}
        empty={cursors.length > 0 ? 'No older alarms.' : filtered ? 'No active alarms match.' : 'No active alarms.'}
      />
      {dialog ? (
        <AlarmDialog
          kind={dialog.kind}
          alarms={dialog.alarms}
          onCancel={() => setDialog(undefined)}
          onDone={(comment) => {
            setDialog(undefined);
            run(dialog.alarms, dialog.kind, dialog.kind === 'comment' ? comment : undefined);
          }}
        />
      ) : null}
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
              (alarms && alarms.length > 0 ? `: alarms ${first}–${first + alarms.length - 1}` : '') +
              // The severity is picked within the page: say how many of its alarms that leaves.
              (alarms && visible && visible.length !== alarms.length
                ? `, ${visible.length} of them ${query.severity ?? ''}`
                : '')}
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
