import { useEffect, useState } from 'preact/hooks';
import type { AlarmWire, NodeLogWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

const LOG_LIMIT = 50;

/** A node's active alarms (`GET /api/alarm/node/{id}`) and its newest logs (`GET /api/logs/node/{id}`). */
export function NodeActivity(props: { readonly client: OperatorClient; readonly nodeId: string }) {
  const { client, nodeId } = props;
  const [alarms, setAlarms] = useState<readonly AlarmWire[] | undefined>();
  const [logs, setLogs] = useState<readonly NodeLogWire[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const id = encodeURIComponent(nodeId);
    const fail = (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason));
    client
      .get<{ alarms: AlarmWire[] }>(`/api/alarm/node/${id}?tags=all`)
      .then((reply) => setAlarms(reply.alarms))
      .catch(fail);
    client
      .get<{ logs: NodeLogWire[] }>(`/api/logs/node/${id}?limit=${LOG_LIMIT}`)
      .then((reply) => setLogs(reply.logs))
      .catch(fail);
  }, [client, nodeId]);
  return (
    <>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <section aria-labelledby="node-alarms">
        <h2 id="node-alarms">Alarms</h2>
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
