/**
 * Secret variables stored in clear by earlier versions (before issue 23 sealed them) are sealed
 * when the service starts, before any device is collected.
 */
import type { DriverRegistry } from '@triad/device-drivers';
import { SecretSealError, type SecretCipher } from '@triad/service-kit';
import type { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplateRepository } from '../repositories/template-repository.js';
import { openSecrets, type DriverSettings } from './device-secrets.js';
import { sealVariables, secretVariableUses } from './secret-variables.js';
import { templateDocument } from '../model/template-document.js';

export interface SealStoredVariablesOptions {
  readonly devices: Pick<DeviceRepository, 'list' | 'replaceVariables'>;
  readonly templates: Pick<TemplateRepository, 'find'>;
  readonly registry: DriverRegistry;
  readonly cipher: SecretCipher;
}

/**
 * Seals every stored variable that fills a driver secret of its device's template and is still in
 * clear. A device is rewritten only while its variables are as read, so a change made meanwhile (here
 * or on another instance) wins; a device whose template version is gone, or whose driver secrets no
 * key here opens, is left as it is. Returns how many devices were rewritten.
 */
export async function sealStoredVariables(options: SealStoredVariablesOptions): Promise<number> {
  const { devices, templates, registry, cipher } = options;
  let sealed = 0;
  for (const device of await devices.list()) {
    const record = await templates.find(device.templateId, device.templateVersion);
    if (record === undefined) continue;
    const template = templateDocument(record);
    let drivers: DriverSettings;
    try {
      drivers = openSecrets(device.drivers, registry, cipher);
    } catch (error) {
      // A key this instance lacks: the device cannot run here either, and says so when it starts.
      if (error instanceof SecretSealError) continue;
      throw error;
    }
    const uses = secretVariableUses(template, drivers, registry);
    const variables = sealVariables(device.variables, new Set(uses.keys()), cipher, device.variables);
    if (Object.entries(variables).every(([name, value]) => device.variables[name] === value)) continue;
    if (await devices.replaceVariables(device.id, device.variables, variables)) sealed += 1;
  }
  return sealed;
}
