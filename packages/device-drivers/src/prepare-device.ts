/**
 * Binds a template to one device: fills its `/{NAME}/` placeholders with the device's variables,
 * merges the device's driver settings over the template's, and checks that every driver it needs
 * exists and accepts its configuration. The problems are what `POST /devices` answers 422 with.
 */
import { isObject } from '@triad/common';
import type { DeviceTemplate } from '@triad/device-templates';
import { planCollection, type DriverPlan } from './collection-plan.js';
import type { DriverRegistry } from './driver-registry.js';
import { mergeDriverConfig } from './merge-driver-config.js';
import { substituteVariables } from './substitute-variables.js';

export interface DeviceBinding {
  readonly variables?: Readonly<Record<string, string>>;
  /** Per originType, settings merged over the template's `originTypes` entry. */
  readonly drivers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface DeviceProblem {
  /** JSON Pointer into the request (`/variables/ICMP_IPAddress`, `/drivers/svc-ds-drv-snmp`). */
  readonly path: string;
  readonly message: string;
}

export interface PreparedDevice {
  readonly origin: string;
  readonly drivers: readonly { readonly plan: DriverPlan; readonly config: Readonly<Record<string, unknown>> }[];
  readonly problems: readonly DeviceProblem[];
}

/**
 * `plans`, when given, must be `planCollection(template)`: a caller binding many devices to one
 * template passes it once made, so they share its (read-only) plans instead of each holding a copy.
 */
export function prepareDevice(
  template: DeviceTemplate,
  binding: DeviceBinding,
  registry: DriverRegistry,
  plans: readonly DriverPlan[] = planCollection(template),
): PreparedDevice {
  const variables = binding.variables ?? {};
  const overrides = binding.drivers ?? {};
  const problems: DeviceProblem[] = [];
  const missing = new Set<string>();
  const origin = substituteVariables(template.origin ?? '', variables);
  for (const name of origin.missing) missing.add(name);

  const known = new Set(plans.map((plan) => plan.originType));
  for (const [originType, override] of Object.entries(overrides)) {
    if (!known.has(originType))
      problems.push({
        path: `/drivers/${escape(originType)}`,
        message: `the template uses no driver '${originType}' (it uses ${[...known].join(', ') || 'none'})`,
      });
    else if (!isObject(override))
      problems.push({ path: `/drivers/${escape(originType)}`, message: 'driver settings must be an object' });
  }

  const drivers = plans.map((plan) => {
    const override = overrides[plan.originType];
    const merged = mergeDriverConfig(plan.config, isObject(override) ? override : undefined);
    const filled = substituteVariables(merged, variables);
    for (const name of filled.missing) missing.add(name);
    const factory = registry.get(plan.originType);
    if (factory === undefined)
      problems.push({
        path: `/drivers/${escape(plan.originType)}`,
        message: `Triad has no driver for '${plan.originType}' (it has ${registry.originTypes().join(', ')})`,
      });
    else if (filled.missing.length === 0)
      for (const message of factory.check(filled.value))
        problems.push({ path: `/drivers/${escape(plan.originType)}`, message });
    return { plan, config: filled.value };
  });
  const unfilled = [...missing].map((name) => ({
    path: `/variables/${escape(name)}`,
    message: `the template uses /{${name}}/ but the device gives no value for it: add "variables": {"${name}": "…"}`,
  }));
  return { origin: origin.value, drivers, problems: [...unfilled, ...problems] };
}

function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
