import { AddressGuard } from './address-guard.js';
import type { DriverFactory } from './driver.js';

/** The drivers a collector can use, by `originType`, and the guard their connections go through. */
export class DriverRegistry {
  readonly #factories = new Map<string, DriverFactory>();
  /** Checks every address the drivers connect to (default: the built-in rules only). */
  readonly guard: AddressGuard;

  constructor(factories: Iterable<DriverFactory> = [], guard: AddressGuard = new AddressGuard()) {
    for (const factory of factories) this.add(factory);
    this.guard = guard;
  }

  add(factory: DriverFactory): this {
    this.#factories.set(kindOf(factory.originType), factory);
    return this;
  }

  /**
   * The driver for an `originType`. The vendor part is not significant: `svc-ds-drv-snmp` (our
   * starters) and `netin-ds-drv-snmp` (NetinDS templates) name the same driver.
   */
  get(originType: string): DriverFactory | undefined {
    return this.#factories.get(kindOf(originType));
  }

  originTypes(): string[] {
    return [...this.#factories.values()].map((factory) => factory.originType);
  }
}

function kindOf(originType: string): string {
  const at = originType.indexOf('-ds-drv-');
  return at === -1 ? originType : originType.slice(at + 1);
}
