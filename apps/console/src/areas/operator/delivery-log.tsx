import { useEffect, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { whenText } from './alarm-severity.js';
import { lastError, type DeliveryWire } from './notification-wire.js';
import type { OperatorClient } from './operator-client.js';

/** Notifications per page of the delivery log. */
export const DELIVERY_PAGE = 20;

const STATE_CLASS: Readonly<Record<string, string>> = {
  delivered: 'sev-cleared',
  failed: 'sev-critical',
  pending: 'sev-warning',
  sending: 'sev-warning',
};

/**
 * The delivery log (`GET /api/notifications/deliveries`), newest first, `DELIVERY_PAGE` at a time:
 * channel, alarm and what happened to it, state (word and colour), attempts, the last error, when
 * it was made and the next attempt. "Newer" and "Older" page; `version` reads the page again.
 */
export function DeliveryLog(props: {
  readonly client: OperatorClient;
  readonly channelName: (id: string) => string;
  readonly version: number;
  readonly onError: (failure: unknown) => void;
}) {
  const { client, onError } = props;
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ rows: readonly DeliveryWire[]; more: boolean } | undefined>();
  useEffect(() => {
    let live = true;
    // One more than a page tells whether there is an older one.
    client
      .get<{ deliveries: DeliveryWire[] }>(`/api/notifications/deliveries?limit=${DELIVERY_PAGE + 1}&offset=${offset}`)
      .then(({ deliveries }) => {
        if (live) setPage({ rows: deliveries.slice(0, DELIVERY_PAGE), more: deliveries.length > DELIVERY_PAGE });
      })
      .catch((failure: unknown) => live && onError(failure));
    return () => {
      live = false;
    };
  }, [client, offset, props.version, onError]);
  const rows = page?.rows;
  return (
    <>
      <DataTable
        caption="Notifications and their delivery, newest first"
        captionHidden
        rows={rows}
        rowKey={(d) => d.id}
        empty={<p>No notification was sent yet.</p>}
        columns={[
          {
            id: 'alarm',
            header: 'Alarm',
            rowHeader: true,
            cell: (d) => (
              <>
                {d.alarm.alarmId} {d.alarm.action}
                <span class="who-when wrap-anywhere">
                  {d.alarm.severity} on {d.alarm.nodeName}
                </span>
              </>
            ),
          },
          { id: 'channel', header: 'Channel', cell: (d) => props.channelName(d.channelId) },
          {
            id: 'state',
            header: 'State',
            cell: (d) => <span class={`badge ${STATE_CLASS[d.status] ?? ''}`}>{d.status}</span>,
          },
          { id: 'attempts', header: 'Attempts', cell: (d) => d.attemptCount },
          {
            id: 'error',
            header: 'Last error',
            cell: (d) => <span class="wrap-anywhere">{lastError(d) ?? '—'}</span>,
          },
          {
            id: 'times',
            header: 'Times',
            cell: (d) => (
              <>
                made {whenText(d.createdAt)}
                {d.nextAttemptAt !== null && d.status !== 'delivered' && d.status !== 'failed' ? (
                  <span class="who-when">next try {whenText(d.nextAttemptAt)}</span>
                ) : null}
              </>
            ),
          },
        ]}
      />
      <nav class="alarm-pager" aria-label="Delivery log pages">
        <button
          type="button"
          aria-disabled={offset === 0}
          onClick={() => offset > 0 && setOffset(Math.max(0, offset - DELIVERY_PAGE))}
        >
          Newer
        </button>
        <p aria-live="polite">
          {rows === undefined
            ? 'Loading…'
            : rows.length === 0
              ? `Page ${offset / DELIVERY_PAGE + 1}`
              : `Page ${offset / DELIVERY_PAGE + 1}: notifications ${offset + 1}–${offset + rows.length}`}
        </p>
        <button
          type="button"
          aria-disabled={!page?.more}
          onClick={() => page?.more && setOffset(offset + DELIVERY_PAGE)}
        >
          Older
        </button>
      </nav>
    </>
  );
}
