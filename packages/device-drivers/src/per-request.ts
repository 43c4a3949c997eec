import type { ReadRequest } from './driver.js';

/**
 * Remembers what `make` derives from a read request: the collector asks with the same request
 * objects at every poll, so a driver parses and batches each once.
 */
export function perRequest<T>(make: (request: ReadRequest) => T): (request: ReadRequest) => T {
  const made = new WeakMap<ReadRequest, T>();
  return (request) => {
    if (made.has(request)) return made.get(request) as T;
    const value = make(request);
    made.set(request, value);
    return value;
  };
}
