import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { errorMessage } from '../../shell/error-alert.js';
import { usePageTitle } from '../../shell/page-title.js';
import { SeverityBadge, whenText } from './alarm-severity.js';
import { ChannelForm } from './channel-form.js';
import { DeliveryLog } from './delivery-log.js';
import { channelTarget, SEVERITIES, type ChannelWire, type SubscriptionWire } from './notification-wire.js';
import type { OperatorClient } from './operator-client.js';
import './notifications-page.css';

/**
 * The Notifications page (admin role; `/notifications`): the channels (add, delete with a confirm
 * step; secrets are write-only and shown as "set"), the signed-in user's subscriptions (channel,
 * lowest severity, tags, alarm ids, family) and the delivery log, a page at a time. API errors
 * show in the alert region, successes in the status region.
 */
export function NotificationsPage(props: { readonly client: OperatorClient; readonly username: string }) {
  usePageTitle('Notifications');
  const { client, username } = props;
  const [channels, setChannels] = useState<readonly ChannelWire[] | undefined>();
  const [subscriptions, setSubscriptions] = useState<readonly SubscriptionWire[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  const [logVersion, setLogVersion] = useState(0);
  const alert = useRef<HTMLDivElement>(null);
  const load = useCallback(async () => {
    const [c, s] = await Promise.all([
      client.get<{ channels: ChannelWire[] }>('/api/notifications/channels'),
      client.get<{ subscriptions: SubscriptionWire[] }>(
        `/api/notifications/subscriptions?username=${encodeURIComponent(username)}`,
      ),
    ]);
    setChannels(c.channels);
    setSubscriptions(s.subscriptions);
  }, [client, username]);
  useEffect(() => {
    load().catch((failure: unknown) => setError(errorMessage(failure)));
  }, [load]);
  // Stable: the delivery log reads again when its error handler changes.
  const fail = useCallback((failure: unknown) => {
    setStatus(undefined);
    setError(errorMessage(failure));
    alert.current?.focus();
  }, []);
  const succeed = async (message: string) => {
    await load();
    setLogVersion((v) => v + 1);
    setError(undefined);
    setStatus(message);
  };
  const channelName = (id: string) => channels?.find((c) => c.id === id)?.name ?? id;

  return (
    <>
      <h1>Notifications</h1>
      <div role="alert" class="error" tabIndex={-1} ref={alert}>
        {error}
      </div>
      <p role="status">{status}</p>
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Channels</h2>
        <DataTable
          caption="Notification channels"
          captionHidden
          rows={channels}
          rowKey={(c) => c.id}
          empty={<p>No channels yet. Add one below to send alarms to a webhook, Slack, PagerDuty or e-mail.</p>}
          columns={[
            { id: 'name', header: 'Name', rowHeader: true, sortValue: (c) => c.name, cell: (c) => c.name },
            { id: 'type', header: 'Type', sortValue: (c) => c.type, cell: (c) => c.type },
            { id: 'target', header: 'Sends to', cell: (c) => <span class="wrap-anywhere">{channelTarget(c)}</span> },
            { id: 'created', header: 'Added', sortValue: (c) => c.createdAt, cell: (c) => whenText(c.createdAt) },
            {
              id: 'actions',
              header: 'Actions',
              cell: (c) =>
                confirming === c.id ? (
                  <span class="actions">
                    <button
                      type="button"
                      class="primary"
                      onClick={() => {
                        setConfirming(undefined);
                        void client
                          .delete(`/api/notifications/channels/${encodeURIComponent(c.id)}`)
                          .then(() => succeed(`Channel ${c.name} deleted, with its subscriptions and deliveries.`))
                          .catch(fail);
                      }}
                    >
                      Confirm delete {c.name}
                    </button>
                    <button type="button" onClick={() => setConfirming(undefined)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button type="button" aria-label={`Delete channel ${c.name}`} onClick={() => setConfirming(c.id)}>
                    Delete
                  </button>
                ),
            },
          ]}
        />
      </section>
      <section aria-labelledby="add-channel-heading">
        <h2 id="add-channel-heading">Add a channel</h2>
        <ChannelForm
          onAdd={async (body, label) => {
            setError(undefined);
            await client.post('/api/notifications/channels', body);
            await succeed(`Channel ${label} added.`);
          }}
          onProblem={(problem) => {
            setStatus(undefined);
            setError(problem);
          }}
        />
      </section>
      <section aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">Your subscriptions</h2>
        <DataTable
          caption={`Subscriptions of ${username}`}
          captionHidden
          rows={subscriptions}
          rowKey={(s) => s.id}
          empty={<p>You are told of nothing yet. Subscribe below to a channel.</p>}
          columns={[
            {
              id: 'channel',
              header: 'Channel',
              rowHeader: true,
              sortValue: (s) => channelName(s.channelId),
              cell: (s) => channelName(s.channelId),
            },
            {
              id: 'severity',
              header: 'From severity',
              sortValue: (s) => SEVERITIES.indexOf(s.minSeverity as (typeof SEVERITIES)[number]),
              cell: (s) => <SeverityBadge severity={s.minSeverity} />,
            },
            { id: 'tags', header: 'Tags', cell: (s) => (s.tags.length ? s.tags.join(', ') : 'any') },
            { id: 'alarms', header: 'Alarm ids', cell: (s) => (s.alarmIds.length ? s.alarmIds.join(', ') : 'any') },
            {
              id: 'actions',
              header: 'Actions',
              cell: (s) => (
                <button
                  type="button"
                  aria-label={`Unsubscribe from ${channelName(s.channelId)}`}
                  onClick={() =>
                    void client
                      .delete(`/api/notifications/subscriptions/${encodeURIComponent(s.id)}`)
                      .then(() => succeed(`Unsubscribed from ${channelName(s.channelId)}.`))
                      .catch(fail)
                  }
                >
                  Unsubscribe
                </button>
              ),
            },
          ]}
        />
        <SubscribeForm
          channels={channels ?? []}
          onSubscribe={(body, label) =>
            client
              .post('/api/notifications/subscriptions', body)
              .then(() => succeed(`Subscribed to ${label}.`))
              .then(() => true)
              .catch((failure: unknown) => {
                fail(failure);
                return false;
              })
          }
        />
      </section>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Delivery log</h2>
        <DeliveryLog client={client} channelName={channelName} version={logVersion} onError={fail} />
      </section>
    </>
  );
}

/** Subscribing the signed-in user: a channel, the lowest severity, and optional tags and alarm ids. */
function SubscribeForm(props: {
  readonly channels: readonly ChannelWire[];
  readonly onSubscribe: (body: Record<string, unknown>, label: string) => Promise<boolean>;
}) {
  const [channelId, setChannelId] = useState('');
  const [severity, setSeverity] = useState('warning');
  const [tags, setTags] = useState('');
  const [alarmIds, setAlarmIds] = useState('');
  const chosen = props.channels.find((c) => c.id === channelId) ?? props.channels[0];
  const list = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  if (props.channels.length === 0) return <p>Add a channel first; then you can subscribe to it here.</p>;
  return (
    <form
      class="stacked-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        const body = { channelId: chosen.id, minSeverity: severity, tags: list(tags), alarmIds: list(alarmIds) };
        void props.onSubscribe(body, chosen.name).then((done) => {
          if (!done) return;
          setTags('');
          setAlarmIds('');
        });
      }}
    >
      <h3>Subscribe</h3>
      <label for="subscription-channel">Channel</label>
      <select
        id="subscription-channel"
        value={chosen?.id ?? ''}
        onChange={(event) => setChannelId(event.currentTarget.value)}
      >
        {props.channels.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.type})
          </option>
        ))}
      </select>
      <label for="subscription-severity">From severity</label>
      <select id="subscription-severity" value={severity} onChange={(event) => setSeverity(event.currentTarget.value)}>
        {SEVERITIES.map((s) => (
          <option key={s} value={s}>
            {s} and above
          </option>
        ))}
      </select>
      <label for="subscription-tags">Tags (optional)</label>
      <input
        id="subscription-tags"
        aria-describedby="subscription-tags-hint"
        value={tags}
        onInput={(event) => setTags(event.currentTarget.value)}
      />
      <p id="subscription-tags-hint" class="hint">
        Only alarms of nodes with one of these tags; separated by commas. Empty: every node you may see.
      </p>
      <label for="subscription-alarms">Alarm ids (optional)</label>
      <input
        id="subscription-alarms"
        aria-describedby="subscription-alarms-hint"
        value={alarmIds}
        onInput={(event) => setAlarmIds(event.currentTarget.value)}
      />
      <p id="subscription-alarms-hint" class="hint">
        For example process_limit, node_down; separated by commas. Empty: every alarm.
      </p>
      <button type="submit" class="primary">
        Subscribe
      </button>
    </form>
  );
}
