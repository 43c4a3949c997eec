/**
 * Creating, changing and deleting devices: check the binding against the stored template version
 * and the drivers (nothing is stored when it does not fit), seal the secrets, store, then have the
 * owning instance (re)start or stop the collection.
 */
import { randomUUID } from 'node:crypto';
import {
  AddressRefusedError,
  hostAddress,
  prepareDevice,
  type AddressRefusal,
  type DriverRegistry,
  type PreparedDevice,
} from '@triad/device-drivers';
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
    await this.#checkTargets(prepared);
    return prepared;
  }

  /**
   * The address policy on every place the device's drivers would send bytes to: addresses and
   * names as written, then each address a name resolves to now (a name that does not resolve yet
   * is accepted; every connection checks again). 422 `TPL_ERR_DEVICE_ADDRESS_REFUSED` naming the rule.
   */
  async #checkTargets(prepared: PreparedDevice): Promise<void> {
    const { registry } = this.#options;
    for (const { plan, config } of prepared.drivers) {
      for (const target of registry.get(plan.originType)?.targets(config) ?? []) {
        const path = `/drivers/${pointer(plan.originType)}/${target.path.split('.').map(pointer).join('/')}`;
        let refusal = registry.guard.policy.checkHost(target.host, target.port);
        if (refusal === undefined && hostAddress(target.host) === undefined)
          refusal = await resolvedRefusal(registry, target.host, target.port);
        const where = target.port === undefined ? target.host : `${target.host} port ${target.port}`;
        if (refusal !== undefined)
          throw templatesProblems.create(
            'TPL_ERR_DEVICE_ADDRESS_REFUSED',
            `${plan.originType} would connect to ${where}, ` +
              `which the device address policy refuses (${refusal.rule}): ${refusal.message}`,
            { rule: refusal.rule, errors: [{ path, message: refusal.message }] },
          );
      }
    }
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

/** Longest wait for a name's addresses when a device is stored, ms. */
const RESOLVE_TIMEOUT_MS = 3000;

/** The refusal of one of the addresses `host` resolves to now; none when it does not resolve in time. */
async function resolvedRefusal(
  registry: DriverRegistry,
  host: string,
  port: number | undefined,
): Promise<AddressRefusal | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), RESOLVE_TIMEOUT_MS);
    timer.unref();
  });
  const checked = registry.guard.resolve(host, port).then(
    () => undefined,
    (error: unknown) => (error instanceof AddressRefusedError ? error.refusal : undefined),
  );
  try {
    return await Promise.race([checked, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function pointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
