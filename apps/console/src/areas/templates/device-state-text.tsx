/** A device's state as text: up, down with the last error's message, or unknown. */
import type { Device } from './device-wire.js';

export function DeviceStateText({ device }: { readonly device: Pick<Device, 'state' | 'lastError'> }) {
  return (
    <span class={`tpl-state tpl-state-${device.state}`}>
      {device.state}
      {device.state === 'down' && device.lastError ? (
        <span class="tpl-state-error">
          {' '}
          ({device.lastError.code}: {device.lastError.message})
        </span>
      ) : null}
    </span>
  );
}
