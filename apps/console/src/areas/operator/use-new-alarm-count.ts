import { useEffect, useState } from 'preact/hooks';
import type { Subscribe } from './live-updates.js';
import type { AlarmWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

/** The most alarms one list call gives (the API's largest `limit`); more reads "1000+". */
export const NEW_ALARM_LIMIT = 1000;

/** Alarm frames closer together than this are counted once. */
const RECOUNT_MS = 300;

/** How many active alarms are new (not acknowledged), and whether there may be more than counted. */
export interface NewAlarmCount {
  readonly count: number;
  readonly more: boolean;
}

/**
 * The live count of new alarms for the navigation: the newest `NEW_ALARM_LIMIT` active alarms of
 * every tag (`/api/alarm?limit=1000&tags=all`), counted again after alarm frames and a resync.
 * Undefined until the first answer or when the list cannot be read.
 */
export function useNewAlarmCount(client: OperatorClient, subscribe: Subscribe): NewAlarmCount | undefined {
  const [count, setCount] = useState<NewAlarmCount | undefined>();
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recount = () => {
      client
        .get<{ alarms: AlarmWire[] }>(`/api/alarm?limit=${NEW_ALARM_LIMIT}&tags=all`)
        .then((reply) => {
          if (!live) return;
          const fresh = reply.alarms.filter((a) => a.state === 'new').length;
          setCount({ count: fresh, more: reply.alarms.length >= NEW_ALARM_LIMIT });
        })
        .catch(() => live && setCount(undefined));
    };
    recount();
    const stop = subscribe((event) => {
      if ((event.type !== 'alarm' && event.type !== 'resync') || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        recount();
      }, RECOUNT_MS);
    });
    return () => {
      live = false;
      stop();
      clearTimeout(timer);
    };
  }, [client, subscribe]);
  return count;
}
