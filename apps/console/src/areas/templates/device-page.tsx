/**
 * One device (`/?device=<id>`): its facts, its current values (set, datapoint, row, value and
 * unit, quality, time), a trend of one datapoint, its active alarms and its recent events, all
 * but the trend following the device's event stream without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { usePageTitle } from '../../shell/page-title.js';
import { followLink } from '../../shell/router.js';
import { DeviceStateText } from './device-state-text.js';
import { DeviceTrend } from './device-trend.js';
import { describeEvent, type DeviceAlarm, type DeviceValue, type DeviceView } from './device-wire.js';
import { DeviceWidgets } from './device-widgets.js';
import { formatValue, severityLevel, severityText, withAlias } from './device-words.js';
import { acknowledgeAlarm, readTemplateDocument } from './devices-api.js';
import { findDatapoint, templateOutline, type TemplateOutline } from './template-outline.js';
import { DEVICES_PATH, editorPath } from './templates-routes.js';
import { useLiveDevice, type StreamLink } from './use-live-device.js';
import { useTokenPrompt, type WriteAccess } from './write-token.js';

const LINK_TEXT: Readonly<Record<StreamLink, string>> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: values, alarms and state update as they change.',
  reconnecting: 'Live updates interrupted; reconnecting…',
  closed: 'Live updates stopped.',
};

const time = (at: string | number) => new Date(at).toLocaleString();

const EMPTY: TemplateOutline = { sets: [], widgets: [] };

/** The aliases the template gives a set and a datapoint, else their ids. */
function namesOf(outline: TemplateOutline) {
  return {
    set: (setId: string) => outline.sets.find((s) => s.id === setId)?.alias ?? setId,
    datapoint: (setId: string, datapointId: string) =>
      findDatapoint(outline, setId, datapointId)?.datapoint.alias ?? datapointId,
    unit: (setId: string, datapointId: string) => findDatapoint(outline, setId, datapointId)?.datapoint.unit,
  };
}

function Facts({ device }: { readonly device: DeviceView['device'] }) {
  const variables = Object.entries(device.variables);
  return (
    <dl class="tpl-facts">
      <dt>State</dt>
      <dd>
        <DeviceStateText device={device} />
      </dd>
      <dt>Template</dt>
      <dd>
        <a href={editorPath(device.templateId, device.templateVersion)} onClick={followLink}>
          {device.templateId}@{device.templateVersion}
        </a>
      </dd>
      <dt>Variables</dt>
      <dd>
        {variables.length === 0
          ? 'none'
          : variables.map(([name, value]) => (
              <code key={name} class="tpl-variable-fact">
                {name}={value}
              </code>
            ))}
      </dd>
      <dt>Driver settings</dt>
      <dd>
        <pre class="tpl-json">{JSON.stringify(device.drivers, null, 2)}</pre>
      </dd>
      <dt>Created</dt>
      <dd>{time(device.createdAt)}</dd>
      <dt>Changed</dt>
      <dd>{time(device.updatedAt)}</dd>
      <dt>Id</dt>
      <dd>
        <code>{device.id}</code>
      </dd>
    </dl>
  );
}

function ValuesTable({
  values,
  outline,
}: {
  readonly values: readonly DeviceValue[];
  readonly outline: TemplateOutline;
}) {
  const names = namesOf(outline);
  return (
    <DataTable
      labelledBy="tpl-values-title"
      rows={values}
      rowKey={(v) => `${v.datapointSetId}/${v.datapointId}/${v.row ?? ''}`}
      empty="No reading yet."
      columns={[
        {
          id: 'set',
          header: 'Set',
          sortValue: (v) => names.set(v.datapointSetId),
          cell: (v) => names.set(v.datapointSetId),
        },
        {
          id: 'datapoint',
          header: 'Datapoint',
          rowHeader: true,
          sortValue: (v) => names.datapoint(v.datapointSetId, v.datapointId),
          cell: (v) => names.datapoint(v.datapointSetId, v.datapointId),
        },
        { id: 'row', header: 'Row', sortValue: (v) => v.row, cell: (v) => v.row ?? '–' },
        {
          id: 'value',
          header: 'Value',
          cellClass: () => 'tpl-number',
          cell: (v) => formatValue(v.value, v.unit ?? names.unit(v.datapointSetId, v.datapointId)),
        },
        {
          id: 'quality',
          header: 'Quality',
          sortValue: (v) => v.quality,
          cellClass: (v) => `tpl-quality-${v.quality}`,
          cell: (v) => v.quality,
        },
        {
          id: 'time',
          header: 'Time',
          firstDirection: 'descending',
          sortValue: (v) => v.timestamp,
          cell: (v) => time(v.timestamp),
        },
      ]}
    />
  );
}

function AlarmsTable({
  alarms,
  outline,
  onAcknowledge,
  busy,
}: {
  readonly alarms: readonly DeviceAlarm[];
  readonly outline: TemplateOutline;
  /** Acknowledges the alarm, or takes it back (`undo`). */
  readonly onAcknowledge: (alarm: DeviceAlarm, undo: boolean) => void;
  /** The id of the alarm being changed. */
  readonly busy: string | undefined;
}) {
  const names = namesOf(outline);
  return (
    <DataTable
      labelledBy="tpl-alarms-title"
      rows={alarms}
      rowKey={(a) => `${a.datapointSetId}/${a.datapointId}/${a.row ?? ''}/${a.severity}`}
      empty="No active alarms."
      columns={[
        {
          id: 'severity',
          header: 'Severity',
          sortValue: (a) => a.severity,
          cellClass: (a) => `tpl-alarm-severity tpl-severity-${severityLevel(a.severity)}`,
          cell: (a) => severityText(a.severity),
        },
        {
          id: 'alarm',
          header: 'Alarm',
          rowHeader: true,
          sortValue: (a) => a.text,
          cell: (a) => {
            const alias = names.datapoint(a.datapointSetId, a.datapointId);
            return (
              <>
                {withAlias(a.text, a.datapointId, alias)}
                {a.textHelp ? (
                  <span class="tpl-muted tpl-help"> {withAlias(a.textHelp, a.datapointId, alias)}</span>
                ) : null}
              </>
            );
          },
        },
        {
          id: 'datapoint',
          header: 'Datapoint',
          cell: (a) =>
            `${names.set(a.datapointSetId)}: ${names.datapoint(a.datapointSetId, a.datapointId)}` +
            (a.row === null ? '' : ` row ${a.row}`),
        },
        {
          id: 'value',
          header: 'Value',
          cell: (a) => formatValue(a.value, names.unit(a.datapointSetId, a.datapointId)),
        },
        {
          id: 'raised',
          header: 'Raised',
          firstDirection: 'descending',
          sortValue: (a) => Date.parse(a.raisedAt),
          cell: (a) => time(a.raisedAt),
        },
        {
          id: 'acknowledged',
          header: 'Acknowledged',
          sortValue: (a) => (a.acknowledged ? Date.parse(a.acknowledged.at) : 0),
          cell: (a) => {
            const name = withAlias(a.text, a.datapointId, names.datapoint(a.datapointSetId, a.datapointId));
            return (
              <>
                {a.acknowledged ? (
                  <span class="tpl-acknowledged">
                    by {a.acknowledged.by}, {time(a.acknowledged.at)}{' '}
                  </span>
                ) : null}
                <button
                  type="button"
                  disabled={busy === a.id}
                  aria-label={`${a.acknowledged ? 'Unacknowledge' : 'Acknowledge'}: ${name}`}
                  onClick={() => onAcknowledge(a, a.acknowledged !== null)}
                >
                  {a.acknowledged ? 'Unacknowledge' : 'Acknowledge'}
                </button>
              </>
            );
          },
        },
      ]}
    />
  );
}

/** The device page; it asks for the token when the service wants one to read devices. */
export function DevicePage({ deviceId, access }: { readonly deviceId: string; readonly access: WriteAccess }) {
  const { view, values, link, error, announcement, failure } = useLiveDevice(deviceId, access.token);
  const tokens = useTokenPrompt(access);
  const { asks } = tokens;
  // A 401 or 403 shows the token field; once given, the device is read again with it.
  useEffect(() => {
    if (failure !== undefined) asks(failure, () => undefined);
  }, [failure]);
  usePageTitle(view ? view.device.name : 'Device');
  // The template version's aliases, units and widgets (read once per version).
  const [outline, setOutline] = useState<TemplateOutline>(EMPTY);
  const templateKey = view ? `${view.device.templateId}\u0000${view.device.templateVersion}` : '';
  useEffect(() => {
    if (!view) return;
    let live = true;
    readTemplateDocument(view.device.templateId, view.device.templateVersion).then(
      (document) => live && setOutline(templateOutline(document)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [templateKey]);
  const names = namesOf(outline);
  const [busy, setBusy] = useState<string | undefined>();
  const [actionError, setActionError] = useState<string | undefined>();
  // The stream brings the change to every page showing the device, this one included.
  const acknowledge = (alarm: DeviceAlarm, undo: boolean, token = access.token): void => {
    setBusy(alarm.id);
    setActionError(undefined);
    acknowledgeAlarm(deviceId, alarm.id, undo, token)
      .catch((reason: unknown) => {
        if (!asks(reason, (given) => acknowledge(alarm, undo, given)))
          setActionError(reason instanceof Error ? reason.message : String(reason));
      })
      .finally(() => setBusy(undefined));
  };
  return (
    <section class="tpl-device-page" aria-labelledby="tpl-device-title">
      <p>
        <a href={DEVICES_PATH} onClick={followLink}>
          All devices
        </a>
      </p>
      <h1 id="tpl-device-title">{view ? view.device.name : 'Device'}</h1>
      <p class="error" role="alert">
        {error}
      </p>
      {tokens.field}
      <p class="tpl-muted">{LINK_TEXT[link]}</p>
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {view ? (
        <>
          <Facts device={view.device} />
          {outline.widgets.length > 0 ? (
            <>
              <h2>Overview</h2>
              <DeviceWidgets outline={outline} values={values} />
            </>
          ) : null}
          <h2 id="tpl-values-title">Current values</h2>
          <ValuesTable values={values} outline={outline} />
          <DeviceTrend deviceId={deviceId} outline={outline} values={values} token={access.token} asks={asks} />
          <h2 id="tpl-alarms-title">Active alarms</h2>
          <p class="error" role="alert">
            {actionError}
          </p>
          <AlarmsTable alarms={view.alarms} outline={outline} onAcknowledge={acknowledge} busy={busy} />
          <h2 id="tpl-events-title">Recent events</h2>
          {view.events.length === 0 ? (
            <p>No events yet.</p>
          ) : (
            <ol class="tpl-events" aria-labelledby="tpl-events-title">
              {view.events.map((event) => (
                <li key={event.id} class={`tpl-event-${event.type}`}>
                  <time dateTime={event.at}>{time(event.at)}</time> {describeEvent(event, names.datapoint)}
                </li>
              ))}
            </ol>
          )}
        </>
      ) : error ? null : (
        <p aria-live="polite">Loading…</p>
      )}
    </section>
  );
}
