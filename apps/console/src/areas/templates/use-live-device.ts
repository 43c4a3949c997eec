/**
 * A device as its page shows it, kept current by `GET /devices/{id}/stream` (EventSource): the
 * stream's `value` events fill the values, its other events change the alarms, the state and the
 * recent events. Each time the stream (re)opens, the device, its alarms and its events are read
 * again, because what happened while it was closed is not sent again; events that arrive while
 * that read is under way are applied to its answer.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../../shell/error-alert.js';
import { deviceUrl, readAlarms, readDevice, readEvents } from './devices-api.js';
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
}

const EVENT_TYPES = ['alarm-raised', 'alarm-cleared', 'log', 'state'] as const;

function announce(event: DeviceEvent): string | undefined {
  if (event.type === 'alarm-raised') return `Alarm raised: ${event.text ?? ''}`;
  if (event.type === 'alarm-cleared') return `Alarm cleared: ${event.text ?? ''}`;
  if (event.type === 'state') return `State ${event.state ?? ''}`;
  return undefined;
}

/** The live device `id`; the stream closes when the calling component goes away. */
export function useLiveDevice(id: string): LiveDevice {
  const [view, setView] = useState<DeviceView | undefined>();
  const [values, setValues] = useState<readonly DeviceValue[]>([]);
  const [link, setLink] = useState<StreamLink>('connecting');
  const [error, setError] = useState('');
  const [announcement, setAnnouncement] = useState('');

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
          readDevice(id),
          readAlarms(id),
          readEvents(id, RECENT_EVENTS),
        ]);
        if (stopped) return;
        show(pending.reduce(withEvent, { device, alarms, events }));
        setError('');
      } catch (failure) {
        if (!stopped) setError(errorMessage(failure));
      } finally {
        reading = false;
        pending = [];
      }
    };

    const source = new EventSource(`${deviceUrl(id)}/stream`);
    source.addEventListener('open', () => {
      setLink('live');
      void read();
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        setLink('closed');
        // Say why: the device is gone (404) or the service is down.
        if (!reading) void read();
      } else setLink('reconnecting');
    });
    source.addEventListener('value', (message: MessageEvent<string>) => {
      const value = JSON.parse(message.data) as DeviceValue;
      setValues((list) => withValue(list, value));
    });
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        const event = JSON.parse(message.data) as DeviceEvent;
        if (reading) pending.push(event);
        if (current) show(withEvent(current, event));
        // A state event also follows a change of the device (PATCH restarts it): read its facts again.
        if (event.type === 'state' && !reading) {
          readDevice(id).then(
            (device) => current && !stopped && show({ ...current, device }),
            () => undefined,
          );
        }
        const said = announce(event);
        if (said) setAnnouncement(said);
      });
    }
    return () => {
      stopped = true;
      source.close();
    };
  }, [id]);

  return { view, values, link, error, announcement };
}
