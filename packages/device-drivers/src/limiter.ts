/**
 * Bounds how many device reads run at once across all devices, so a burst of polls (or many
 * dead devices waiting for their timeouts) cannot starve the process: common's
 * `ConcurrencyLimit`, first come, first served.
 */
export { ConcurrencyLimit as Limiter } from '@triad/common';
