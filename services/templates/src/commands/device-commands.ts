/**
 * Creating, changing and deleting devices: check the binding against the stored template version
 * and the drivers (nothing is stored when it does not fit), seal the secrets, store, then have the
 * owning instance (re)start or stop the collection.
 */
import { randomUUID } from 'node:crypto';
import { prepareDevice, type DriverRegistry, type PreparedDevice } from '@triad/device-drivers';
import { DEVICE_VARIABLE, type DeviceTemplate } from '@triad/device-templates';
import type { SecretCipher } from '@triad/service-kit';
import type { DeviceCollection } from '../devices/device-collection.js';
import { HIDDEN, openSecrets, sealSecrets } from '../devices/device-secrets.js';
import { keptSecrets, secretsForNewTargets, type SecretPlace } from '../devices/secret-binding.js';
import { templatesProblems } from '../errors.js';
import type { DeviceRecord, DeviceRepository } from '../repositories/device-repository.js';
import type { TemplateRepository } from '../repositories/template-repository.js';

export interface DeviceCommandsOptions {
  readonly devices: DeviceRepository;
  readonly templates: TemplateRepository;
  readonly registry: DriverRegistry;
  readonly cipher: SecretCipher;
  /** Starts, restarts and stops the collection on whichever instance owns the device. */
  readonly collection: Pick<DeviceCollection, 'changed' | 'halt'>;
  readonly now?: () => number;
}

export interface DeviceInput {
  readonly name: string;
  readonly templateId: string;
  readonly templateVersion: string;
  readonly variables?: Readonly<Record<string, string>>;
  readonly drivers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export class DeviceCommands {
  readonly #options: DeviceCommandsOptions;

  constructor(options: DeviceCommandsOptions) {
    this.#options = options;
  }

  async create(input: DeviceInput): Promise<DeviceRecord> {
    const drivers = input.drivers ?? {};
    await this.#check(input, drivers);
    const now = this.#now();
    const device: DeviceRecord = {
      id: randomUUID(),
      name: input.name,
      templateId: input.templateId,
      templateVersion: input.templateVersion,
      variables: input.variables ?? {},
      drivers: sealSecrets(drivers, this.#options.registry, this.#options.cipher),
      state: 'unknown',
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#options.devices.create(device);
    await this.#options.collection.changed('created', device.id);
    return device;
  }

  /**
   * Changes a device. A stored secret survives only while its driver's target stays the same
   * (secret-binding.ts): a change of address, port, broker URL, TLS, template or variables that
   * would keep one (`"hidden"`, or `drivers` left out) is refused with `TPL_ERR_DEVICE_SECRET_REQUIRED`
   * naming the fields to send again.
   */
  async update(id: string, patch: Partial<DeviceInput>): Promise<DeviceRecord> {
    const current = await this.find(id);
    const { registry, cipher } = this.#options;
    const stored =
      patch.drivers === undefined ? current.drivers : sealSecrets(patch.drivers, registry, cipher, current.drivers);
    const next: DeviceRecord = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.templateId !== undefined ? { templateId: patch.templateId } : {}),
      ...(patch.templateVersion !== undefined ? { templateVersion: patch.templateVersion } : {}),
      ...(patch.variables !== undefined ? { variables: patch.variables } : {}),
      drivers: stored,
      state: 'unknown',
      lastError: null,
      updatedAt: this.#now(),
    };
    const after = await this.#check(next, openSecrets(stored, registry, cipher));
    const kept = keptSecrets(current.drivers, stored, registry);
    if (kept.length > 0) {
      const moved = secretsForNewTargets(kept, await this.#prepareStored(current), after, registry);
      if (moved.length > 0) throw secretsRequired(moved);
    }
    await this.#options.devices.replace(next);
    await this.#options.collection.changed('updated', id);
    return next;
  }

  /** The device as stored, bound to its template (secrets left sealed: targets leave them out). */
  async #prepareStored(device: DeviceRecord): Promise<PreparedDevice | undefined> {
    const record = await this.#options.templates.find(device.templateId, device.templateVersion);
    if (record === undefined) return undefined;
    const template = JSON.parse(record.documentJson) as DeviceTemplate;
    return prepareDevice(template, { variables: device.variables, drivers: device.drivers }, this.#options.registry);
  }

  async delete(id: string): Promise<void> {
    await this.#options.collection.halt(id);
    if (!(await this.#options.devices.delete(id)))
      throw templatesProblems.create('TPL_ERR_DEVICE_NOT_FOUND', `No device ${id}`, { id });
    await this.#options.collection.changed('deleted', id);
  }

  async find(id: string): Promise<DeviceRecord> {
    const device = await this.#options.devices.find(id);
    if (device === undefined) throw templatesProblems.create('TPL_ERR_DEVICE_NOT_FOUND', `No device ${id}`, { id });
    return device;
  }

  async #check(input: DeviceInput, drivers: DeviceInput['drivers']): Promise<PreparedDevice> {
    const badNames = [
      ...Object.keys(input.variables ?? {})
        .filter((name) => !DEVICE_VARIABLE.test(name))
        .map((name) => ({ path: `/variables/${name}`, message: 'a variable name is 1 to 80 letters, digits or _' })),
      ...Object.keys(drivers ?? {})
        .filter((name) => !/^[a-zA-Z0-9-]{1,80}$/.test(name))
        .map((name) => ({ path: `/drivers/${name}`, message: 'an originType is 1 to 80 letters, digits or -' })),
    ];
    if (badNames.length > 0)
      throw templatesProblems.create('TPL_ERR_DEVICE_INVALID', `The device has a bad name: ${badNames[0]!.message}`, {
        errors: badNames,
      });
    const record = await this.#options.templates.find(input.templateId, input.templateVersion);
    if (record === undefined)
      throw templatesProblems.create(
        'TPL_ERR_DEVICE_INVALID',
        `No template ${input.templateId} ${input.templateVersion}: store it first (POST /templates)`,
        {
          errors: [
            {
              path: '/templateVersion',
              message: `template ${input.templateId} has no version ${input.templateVersion}`,
            },
          ],
        },
      );
    const template = JSON.parse(record.documentJson) as DeviceTemplate;
    const prepared = prepareDevice(
      template,
      { variables: input.variables ?? {}, drivers: drivers ?? {} },
      this.#options.registry,
    );
    if (prepared.problems.length > 0)
      throw templatesProblems.create(
        'TPL_ERR_DEVICE_INVALID',
        `The device does not fit ${input.templateId} ${input.templateVersion}: ${prepared.problems[0]!.message}`,
        { errors: prepared.problems },
      );
    return prepared;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}

/** The 422 for stored secrets a changed target would keep: names every field to send again. */
function secretsRequired(places: readonly SecretPlace[]) {
  const fields = places.map(({ originType, path }) => `drivers.${originType}.${path}`);
  return templatesProblems.create(
    'TPL_ERR_DEVICE_SECRET_REQUIRED',
    `This change moves the device to a new target, and stored secrets stay with the old one: send ` +
      `${fields.join(', ')} again (not "${HIDDEN}"), or leave them out to drop them`,
    {
      fields,
      errors: places.map(({ originType, path }) => ({
        path: `/drivers/${pointer(originType)}/${path.split('.').map(pointer).join('/')}`,
        message: `the target changed: send this secret again`,
      })),
    },
  );
}

function pointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
