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
import { HIDDEN, hiddenWithoutSecret, openSecrets, sealSecrets } from '../devices/device-secrets.js';
import { keptSecrets, secretsForNewTargets, targetChanged, type SecretPlace } from '../devices/secret-binding.js';
import {
  isSealedVariable,
  keptVariables,
  openVariables,
  sealVariables,
  secretVariableUses,
} from '../devices/secret-variables.js';
import { templatesProblems } from '../errors.js';
import type { DeviceRecord } from '../model/device-record.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplateRepository } from '../repositories/template-repository.js';
import { templateDocument } from '../model/template-document.js';

/** What happened to a stored device, as the instances that collect devices are told. */
export type DeviceChangeKind = 'created' | 'updated' | 'deleted';

/**
 * Where device changes go: the collection (`DeviceCollection`), which starts, restarts or stops
 * the device on the instance that owns it.
 */
export interface DeviceChanges {
  /** After a device was stored or deleted: tells every instance, and does this instance's part. */
  changed(kind: DeviceChangeKind, id: string): Promise<void>;
  /** Stops collecting `id` here now (before it is deleted), if this instance collects it. */
  halt(id: string): Promise<void>;
}

export interface DeviceCommandsOptions {
  readonly devices: DeviceRepository;
  readonly templates: TemplateRepository;
  readonly registry: DriverRegistry;
  readonly cipher: SecretCipher;
  /** Starts, restarts and stops the collection on whichever instance owns the device. */
  readonly collection: DeviceChanges;
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
    const { template } = await this.#check(input, drivers);
    const { registry, cipher } = this.#options;
    const secret = new Set(secretVariableUses(template, drivers, registry).keys());
    refuseHiddenWithoutSecret(
      hiddenWithoutSecret(drivers, registry),
      [...secret].filter((name) => input.variables?.[name] === HIDDEN),
    );
    const now = this.#now();
    const device: DeviceRecord = {
      id: randomUUID(),
      name: input.name,
      templateId: input.templateId,
      templateVersion: input.templateVersion,
      variables: sealVariables(input.variables ?? {}, secret, cipher),
      drivers: sealSecrets(drivers, registry, cipher),
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
   * naming the fields to send again. A sealed secret variable (secret-variables.ts) kept by
   * `"hidden"` or by leaving `variables` out is bound to the targets of the drivers it is a
   * secret of in the same way.
   */
  async update(id: string, patch: Partial<DeviceInput>): Promise<DeviceRecord> {
    const current = await this.find(id);
    const { registry, cipher } = this.#options;
    const unbacked = patch.drivers === undefined ? [] : hiddenWithoutSecret(patch.drivers, registry, current.drivers);
    const stored =
      patch.drivers === undefined ? current.drivers : sealSecrets(patch.drivers, registry, cipher, current.drivers);
    const opened = openSecrets(stored, registry, cipher);
    // Variables as given, "hidden" still standing for the sealed value it keeps.
    const given = sealVariables(patch.variables ?? current.variables, new Set(), cipher, current.variables);
    const changed: DeviceRecord = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.templateId !== undefined ? { templateId: patch.templateId } : {}),
      ...(patch.templateVersion !== undefined ? { templateVersion: patch.templateVersion } : {}),
      variables: given,
      drivers: stored,
      state: 'unknown',
      lastError: null,
      updatedAt: this.#now(),
    };
    const { prepared: after, template } = await this.#check(
      { ...changed, variables: openVariables(given, cipher) },
      opened,
    );
    const uses = secretVariableUses(template, opened, registry);
    refuseHiddenWithoutSecret(
      unbacked,
      [...uses.keys()].filter(
        (name) => patch.variables?.[name] === HIDDEN && !isSealedVariable(current.variables[name] ?? ''),
      ),
    );
    // A template change can make a variable stored in clear a secret: it is sealed now.
    const next: DeviceRecord = { ...changed, variables: sealVariables(given, new Set(uses.keys()), cipher, given) };
    const kept = keptSecrets(current.drivers, stored, registry);
    const keptNames = keptVariables(current.variables, next.variables);
    if (kept.length > 0 || keptNames.length > 0) {
      const previous = await this.#prepareStored(current);
      const moved = secretsForNewTargets(kept, previous?.prepared, after, registry);
      const previousUses = previous === undefined ? new Map<string, Set<string>>() : previous.uses;
      // A secret variable moves with any driver it is a secret of, before or after the change.
      const movedNames = keptNames.filter((name) =>
        [...(uses.get(name) ?? []), ...(previousUses.get(name) ?? [])].some((originType) =>
          targetChanged(originType, previous?.prepared, after, registry),
        ),
      );
      if (moved.length > 0 || movedNames.length > 0) throw secretsRequired(moved, movedNames);
    }
    await this.#options.devices.replace(next);
    await this.#options.collection.changed('updated', id);
    return next;
  }

  /**
   * The device as stored, bound to its template, and the drivers its secret variables are secrets
   * of. Driver secrets stay sealed (targets leave them out); variables are opened, as a secret
   * variable may also fill a target.
   */
  async #prepareStored(
    device: DeviceRecord,
  ): Promise<{ prepared: PreparedDevice; uses: Map<string, Set<string>> } | undefined> {
    const { templates, registry, cipher } = this.#options;
    const record = await templates.find(device.templateId, device.templateVersion);
    if (record === undefined) return undefined;
    const template = templateDocument(record);
    const variables = openVariables(device.variables, cipher);
    return {
      prepared: prepareDevice(template, { variables, drivers: device.drivers }, registry),
      uses: secretVariableUses(template, openSecrets(device.drivers, registry, cipher), registry),
    };
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

  /** The device bound to its template (variables and driver settings in clear), or a 422. */
  async #check(
    input: DeviceInput,
    drivers: DeviceInput['drivers'],
  ): Promise<{ prepared: PreparedDevice; template: DeviceTemplate }> {
    const badNames = [
      ...Object.keys(input.variables ?? {})
        .filter((name) => !DEVICE_VARIABLE.test(name))
        .map((name) => ({ path: `/variables/${name}`, message: 'a variable name is 1 to 80 letters, digits or _' })),
      ...Object.keys(drivers ?? {})
        .filter((name) => !/^[a-zA-Z0-9-]{1,80}$/.test(name))
        .map((name) => ({ path: `/drivers/${name}`, message: 'an originType is 1 to 80 letters, digits or -' })),
    ];
    if (badNames.length > 0)
      throw templatesProblems.create('TPL_ERR_DEVICE_INVALID', `The device has a bad name: ${badNames[0]?.message}`, {
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
    const template = templateDocument(record);
    const prepared = prepareDevice(
      template,
      { variables: input.variables ?? {}, drivers: drivers ?? {} },
      this.#options.registry,
    );
    if (prepared.problems.length > 0)
      throw templatesProblems.create(
        'TPL_ERR_DEVICE_INVALID',
        `The device does not fit ${input.templateId} ${input.templateVersion}: ${prepared.problems[0]?.message}`,
        { errors: prepared.problems },
      );
    await this.#checkTargets(prepared);
    return { prepared, template };
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
function secretsRequired(places: readonly SecretPlace[], variables: readonly string[]) {
  const { fields, errors } = secretFields(places, variables, {
    driver: 'the target changed: send this secret again',
    variable: 'the target changed: send this secret variable again',
  });
  return templatesProblems.create(
    'TPL_ERR_DEVICE_SECRET_REQUIRED',
    `This change moves the device to a new target, and stored secrets stay with the old one: send ` +
      `${fields.join(', ')} again (not "${HIDDEN}"), or leave them out to drop them`,
    { fields, errors },
  );
}

/**
 * The 422 for "hidden" where no secret is stored to keep (a reply copied into a new device, or a
 * secret the device never had): storing it would drop the secret, or keep the word as the secret.
 */
function refuseHiddenWithoutSecret(places: readonly SecretPlace[], variables: readonly string[]): void {
  if (places.length === 0 && variables.length === 0) return;
  const message = `"${HIDDEN}" keeps a stored secret, and none is stored here: send the secret itself`;
  const { fields, errors } = secretFields(places, variables, { driver: message, variable: message });
  throw templatesProblems.create(
    'TPL_ERR_DEVICE_INVALID',
    `${fields.join(', ')} ${fields.length === 1 ? 'says' : 'say'} "${HIDDEN}", but this device stores no ` +
      `secret there to keep: send the secret itself`,
    { errors },
  );
}

/** The request fields of secret places and variables, and an error (JSON pointer, message) for each. */
function secretFields(
  places: readonly SecretPlace[],
  variables: readonly string[],
  messages: { readonly driver: string; readonly variable: string },
) {
  return {
    fields: [
      ...places.map(({ originType, path }) => `drivers.${originType}.${path}`),
      ...variables.map((name) => `variables.${name}`),
    ],
    errors: [
      ...places.map(({ originType, path }) => ({
        path: `/drivers/${pointer(originType)}/${path.split('.').map(pointer).join('/')}`,
        message: messages.driver,
      })),
      ...variables.map((name) => ({ path: `/variables/${pointer(name)}`, message: messages.variable })),
    ],
  };
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
