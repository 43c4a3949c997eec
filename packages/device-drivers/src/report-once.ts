/**
 * A driver's diagnostics channel that says each message once per driver instance, prefixed with
 * `prefix` (the driver and its device): a bad address in a template would otherwise be logged at
 * every poll.
 */
export function reportOnce(log: ((message: string) => void) | undefined, prefix: string): (message: string) => void {
  const reported = new Set<string>();
  return (message) => {
    if (reported.has(message)) return;
    reported.add(message);
    log?.(`${prefix}: ${message}`);
  };
}
