import type { DeviceCommands } from '../commands/device-commands.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplateRepository } from '../repositories/template-repository.js';

/** The example template the demo device uses, and the device. */
export const DEMO_DEVICE = Object.freeze({
  name: 'This machine (ping)',
  templateId: 'ICMP host',
  templateVersion: '1.0.0',
  variables: { ICMP_IPAddress: '127.0.0.1' },
});

/**
 * With demo data on and no device stored yet: binds the example ICMP template to 127.0.0.1, so a
 * fresh `npm start` shows a device with live values (real `ping` on loopback). Returns whether
 * it added one.
 */
export async function seedDemoDevice(
  devices: DeviceRepository,
  templates: TemplateRepository,
  commands: DeviceCommands,
): Promise<boolean> {
  if ((await devices.list()).length > 0) return false;
  if ((await templates.find(DEMO_DEVICE.templateId, DEMO_DEVICE.templateVersion)) === undefined) return false;
  await commands.create(DEMO_DEVICE);
  return true;
}
