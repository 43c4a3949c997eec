import { useCallback, useEffect, useState } from 'preact/hooks';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import { addLogEntry, applyAlarmFrame } from './live-node-activity.js';
import type { Subscribe } from './live-updates.js';
import type { AlarmWire, NodeLogWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

const LOG_LIMIT = 50;

/**
 * A node's active alarms (`GET /api/alarm/node/{id}`) and its newest logs (`GET /api/logs/node/{id}`),
 * kept current by the WebSocket's alarm and log frames for this node (and read again after the
 * socket reconnects); alarm changes are announced
 * in a polite status line (log entries are not: they can come in bursts).
 */
export function NodeActivity(props: {
  readonly client: OperatorClient;
  readonly nodeId: string;
  readonly subscribe: Subscribe;
}) {
  const { client, nodeId, subscribe } = props;
  const [alarms, setAlarms] = useState<readonly AlarmWire[] | undefined>();
  const [logs, setLogs] = useState<readonly NodeLogWire[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [announced, setAnnounced] = useState('');
  const load = useCallback(() => {
    const id = encodeURIComponent(nodeId);
    const fail = (reason: unknown) => setError(errorMessage(reason));
    client
      .get<{ alarms: AlarmWire[] }>(`/api/alarm/node/${id}?tags=all`)
      .then((reply) => setAlarms(reply.alarms))
      .catch(fail);
    client
      .get<{ logs: NodeLogWire[] }>(`/api/logs/node/${id}?limit=${LOG_LIMIT}`)
      .then((reply) => setLogs(reply.logs))
      .catch(fail);
  }, [client, nodeId]);
  useEffect(load, [load]);
  useEffect(
    () =>
      subscribe((event) => {
        if (event.type === 'resync') load();
        else if (event.type === 'alarm' && event.alarm.src.nodeId === nodeId) {
          // A frame before the first list arrives is already in that list.
          setAlarms((list) => list && applyAlarmFrame(list, event.action, event.alarm));
          setAnnounced(`${event.alarm.alarmId} ${event.action}.`);
        } else if (event.type === 'log' && event.nodeId === nodeId) {
          setLogs((list) => list && addLogEntry(list, event.log, LOG_LIMIT));
        }
      }),
    [subscribe, nodeId, load],
  );
  return (
    <>
      <ErrorAlert message={error} />
      <section aria-labelledby="node-alarms">
        <h2 id="node-alarms">Alarms</h2>
        <p role="status" class="visually-hidden">
          {announced}
        </p>
        {alarms === undefined ? (
          <p>Loading…</p>
        ) : alarms.length === 0 ? (
          <p>No active alarms.</p>
        ) : (
          <ul class="node-alarms">
            {alarms.map((alarm) => (
              <li key={alarm.eventId}>
                <strong>{alarm.alarmId}</strong> ({alarm.severity}, {alarm.state}) since{' '}
                <time dateTime={new Date(alarm.eventTime).toISOString()}>
                  {new Date(alarm.eventTime).toLocaleString()}
                </time>
                {alarm.additionalInformation ? `: ${alarm.additionalInformation}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="node-logs">
        <h2 id="node-logs">Logs</h2>
        {logs === undefined ? (
          <p>Loading…</p>
        ) : logs.length === 0 ? (
          <p>No log entries.</p>
        ) : (
          <ol class="node-logs" aria-label={`Newest ${LOG_LIMIT} log entries`}>
            {logs.map((log, i) => (
              <li key={`${log.time}-${i}`}>
                <time dateTime={new Date(log.time).toISOString()}>{new Date(log.time).toLocaleString()}</time>{' '}
                <span class={`log-level log-${log.level}`}>{log.level}</span> <span class="log-kind">{log.kind}</span>
                <pre>{log.text}</pre>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
