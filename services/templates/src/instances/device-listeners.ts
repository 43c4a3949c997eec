import type { DeviceEventRecord } from '../model/device-record.js';
import type { DeviceValue } from '../presenters/device-presenter.js';

/** What a stream listener receives. */
export type DeviceStreamItem =
  | { readonly kind: 'event'; readonly event: DeviceEventRecord }
  | { readonly kind: 'values'; readonly values: readonly DeviceValue[] }
  /** The service is stopping: streams end. */
  | { readonly kind: 'end' };

/**
 * The stream listeners of the devices of this instance, whichever instance collects them: items
 * collected here and items other instances sent (`DeviceRelay`) meet here.
 */
export class DeviceListeners {
  readonly #listeners = new Map<string, Set<(item: DeviceStreamItem) => void>>();

  /** Listens to a device's events and value changes; returns the way to stop listening. */
  subscribe(id: string, listener: (item: DeviceStreamItem) => void): () => void {
    let set = this.#listeners.get(id);
    if (set === undefined) this.#listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(id);
    };
  }

  /** Gives `item` to the listeners of device `id`. */
  deliver(id: string, item: DeviceStreamItem): void {
    for (const listener of this.#listeners.get(id) ?? []) listener(item);
  }

  /** The devices that have stream listeners here. */
  listened(): string[] {
    return [...this.#listeners.keys()];
  }

  hasListeners(id: string): boolean {
    return this.#listeners.has(id);
  }

  /** Tells every listener that the service stops (their streams end). */
  end(): void {
    for (const listeners of [...this.#listeners.values()])
      for (const listener of [...listeners]) listener({ kind: 'end' });
  }
}
