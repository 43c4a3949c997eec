/**
 * A device as its page shows it, kept current by `GET /devices/{id}/stream` (Server-Sent Events
 * over fetch, with the token: event-stream.ts): the
 * stream's `value` events fill the values, its other events change the alarms, the state and the
 * recent events. Each time the stream (re)opens, the device, its alarms and its events are read
 * again, because what happened while it was closed is not sent again; events that arrive while
 * that read is under way are applied to its answer.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../../shell/error-alert.js';
import { deviceUrl, readAlarms, readDevice, readEvents, readHeaders } from './devices-api.js';
import { openEventStream } from './event-stream.js';
import {
  RECENT_EVENTS,
  withEvent,
  withValue,
  type DeviceEvent,
  type DeviceValue,
  type DeviceView,
} from './device-wire.js';

/** The stream's condition: connecting, open, reconnecting on its own, or given up (e.g. 404). */
export type StreamLink = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface LiveDevice {
  readonly view: DeviceView | undefined;
  readonly values: readonly DeviceValue[];
  readonly link: StreamLink;
  readonly error: string;
  /** The last live alarm or state change, for a polite live region. */
  readonly announcement: string;
  /** The last failed read, so that the page can ask for a token after a 401 or 403. */
  readonly failure: unknown;
}

const EVENT_TYPES = [
  'alarm-raised',
  'alarm-cleared',
  'alarm-acknowledged',
  'alarm-unacknowledged',
  'log',
  'state',
] as const;

function announce(event: DeviceEvent): string | undefined {
  if (event.type === 'alarm-raised') return `Alarm raised: ${event.text ?? ''}`;
  if (event.type === 'alarm-cleared') return `Alarm cleared: ${event.text ?? ''}`;
  if (event.type === 'alarm-acknowledged') return `Alarm acknowledged: ${event.text ?? ''}`;
  if (event.type === 'alarm-unacknowledged') return `Alarm no longer acknowledged: ${event.text ?? ''}`;
  if (event.type === 'state') return `State ${event.state ?? ''}`;
  return undefined;
}

/**
 * The live device `id`, read with `token` (device reads need one by default); the stream closes
 * when the calling component goes away, and opens again when the token changes.
 */
export function useLiveDevice(id: string, token: string | undefined): LiveDevice {
  const [view, setView] = useState<DeviceView | undefined>();
  const [values, setValues] = useState<readonly DeviceValue[]>([]);
  const [link, setLink] = useState<StreamLink>('connecting');
  const [error, setError] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<unknown>();

  useEffect(() => {
    let current: DeviceView | undefined;
    let reading = false;
    let pending: DeviceEvent[] = [];
    let stopped = false;
    const show = (next: DeviceView) => {
      current = next;
      setView(next);
    };
    const read = async () => {
      reading = true;
      pending = [];
      try {
        const [device, alarms, events] = await Promise.all([
          readDevice(id, token),
          readAlarms(id, token),
          readEvents(id, RECENT_EVENTS, token),
        ]);
        if (stopped) return;
        show(pending.reduce(withEvent, { device, alarms, events }));
        setError('');
        setFailure(undefined);
      } catch (failed) {
        if (stopped) return;
        setError(errorMessage(failed));
        setFailure(failed);
      } finally {
        reading = false;
        pending = [];
      }
    };

    const onEvent = (type: string, data: string) => {
      if (type === 'value') {
        const value = JSON.parse(data) as DeviceValue;
        setValues((list) => withValue(list, value));
        return;
      }
      if (!(EVENT_TYPES as readonly string[]).includes(type)) return;
      const event = JSON.parse(data) as DeviceEvent;
      if (reading) pending.push(event);
      if (current) show(withEvent(current, event));
      // A state event also follows a change of the device (PATCH restarts it): read its facts again.
      if (event.type === 'state' && !reading) {
        readDevice(id, token).then(
          (device) => current && !stopped && show({ ...current, device }),
          () => undefined,
        );
      }
      const said = announce(event);
      if (said) setAnnouncement(said);
    };
    const close = openEventStream(`${deviceUrl(id)}/stream`, readHeaders(token), {
      open: () => {
        setLink('live');
        void read();
      },
      event: onEvent,
      error: (status) => {
        if (status === undefined) {
          setLink('reconnecting');
          return;
        }
        setLink('closed');
        // Say why: the device is gone (404), or a token is needed (401, 403).
        if (!reading) void read();
      },
    });
    return () => {
      stopped = true;
      close();
    };
  }, [id, token]);

  return { view, values, link, error, announcement, failure };
}
