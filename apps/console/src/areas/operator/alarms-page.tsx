import { useCallback, useEffect, useState } from 'preact/hooks';
import { usePageTitle } from '../../shell/page-title.js';
import type { Subscribe } from './live-updates.js';
import type { AlarmWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

const PAGE_SIZE = 50;

/**
 * The active alarms, newest first, `PAGE_SIZE` at a time ("Older alarms" pages with
 * `previous/all?eid=`), each with Acknowledge / Unacknowledge / Clear / Comment. Any alarm event
 * on the WebSocket reloads what is shown, so changes made elsewhere appear without a reload.
 */
export function AlarmsPage(props: {
  readonly client: OperatorClient;
  readonly username: string;
  readonly subscribe: Subscribe;
}) {
  usePageTitle('Alarms');
  const { client, username, subscribe } = props;
  const [pages, setPages] = useState(1);
  const [alarms, setAlarms] = useState<readonly AlarmWire[] | undefined>();
  const [more, setMore] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const load = useCallback(async () => {
    let list: AlarmWire[] = [];
    let batch = (await client.get<{ alarms: AlarmWire[] }>(`/api/alarm?limit=${PAGE_SIZE}&tags=all`)).alarms;
    list = batch;
    for (let page = 1; page < pages && batch.length === PAGE_SIZE; page++) {
      const eid = encodeURIComponent(list[list.length - 1]?.eventId ?? '');
      batch = (
        await client.get<{ alarms: AlarmWire[] }>(`/api/alarm/previous/all?eid=${eid}&limit=${PAGE_SIZE}&tags=all`)
      ).alarms;
      list = [...list, ...batch];
    }
    setAlarms(list);
    setMore(batch.length === PAGE_SIZE);
  }, [client, pages]);
  const reload = useCallback(() => {
    load().catch((error: unknown) => setMessage(error instanceof Error ? error.message : String(error)));
  }, [load]);
  useEffect(reload, [reload]);
  useEffect(() => subscribe((event) => event.type === 'alarm' && reload()), [subscribe, reload]);
  const act = (alarm: AlarmWire, action: 'acknowledge' | 'unacknowledge' | 'clear' | 'comment') => {
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
        reload();
      })
      .catch((error: unknown) => setMessage(error instanceof Error ? error.message : String(error)));
  };
  return (
    <>
      <h1>Alarms</h1>
      <p role="status">{message}</p>
      {alarms === undefined ? (
        <p>Loading alarms…</p>
      ) : alarms.length === 0 ? (
        <p>No active alarms.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Active alarms, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Alarm</th>
                <th scope="col">Node</th>
                <th scope="col">Severity</th>
                <th scope="col">State</th>
                <th scope="col">Raised</th>
                <th scope="col">Information</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {alarms.map((alarm) => (
                <tr key={`${alarm.eventId}`}>
                  <th scope="row">{alarm.alarmId}</th>
                  <td>{alarm.src.nodeName}</td>
                  <td>{alarm.severity}</td>
                  <td>{alarm.state}</td>
                  <td>{new Date(alarm.eventTime).toLocaleString()}</td>
                  <td>
                    {alarm.additionalInformation}
                    {alarm.comments.map((c) => (
                      <div key={c.time}>
                        {c.user}: {c.text}
                      </div>
                    ))}
                  </td>
                  <td>
                    <div class="row-actions" role="group" aria-label={`Actions on ${alarm.alarmId}`}>
                      {alarm.state === 'new' ? (
                        <button type="button" onClick={() => act(alarm, 'acknowledge')}>
                          Acknowledge
                        </button>
                      ) : (
                        <button type="button" onClick={() => act(alarm, 'unacknowledge')}>
                          Unacknowledge
                        </button>
                      )}
                      <button type="button" class="secondary" onClick={() => act(alarm, 'clear')}>
                        Clear
                      </button>
                      <button type="button" class="secondary" onClick={() => act(alarm, 'comment')}>
                        Comment
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more ? (
        <button type="button" class="secondary" onClick={() => setPages((p) => p + 1)}>
          Older alarms
        </button>
      ) : null}
    </>
  );
}
