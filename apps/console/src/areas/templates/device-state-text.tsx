/**
 * A device's state as text: up, down with why in words (the driver's error code as a sentence,
 * its own message once as the detail), or unknown.
 */
import type { Device } from './device-wire.js';
import { driverErrorSentence } from './device-words.js';

export function DeviceStateText({
  device,
  detail = true,
}: {
  readonly device: Pick<Device, 'state' | 'lastError'>;
  /** Show the driver's own message after the sentence (the device page; the list keeps it short). */
  readonly detail?: boolean;
}) {
  return (
    <span class={`tpl-state tpl-state-${device.state}`}>
      {device.state}
      {device.state === 'down' && device.lastError ? (
        <span class="tpl-state-error">
          {' '}
          {driverErrorSentence(device.lastError.code)}
          {detail ? <span class="tpl-muted"> The driver said: {device.lastError.message}</span> : null}
        </span>
      ) : null}
    </span>
  );
}
