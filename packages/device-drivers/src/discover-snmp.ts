/**
 * SNMP discovery: reads `sysDescr` from each address a person names (a CIDR block, single
 * addresses or both), through the SNMP driver itself, so discovery speaks exactly as collection
 * will. Bounded: at most `MAX_TARGETS` addresses, `concurrency` at once, `ratePerSecond` starts.
 */
import { isIP } from 'node:net';
import type { DriverRegistry } from './driver-registry.js';
import { toDriverError } from './driver-error.js';

export const SYS_DESCR_OID = '1.3.6.1.2.1.1.1.0';
/** Most addresses one discovery probes (a /22). */
export const MAX_TARGETS = 1024;

export interface SweepOptions {
  /** SNMP settings as a template's `originTypes` entry holds them; `basicConfig.address` is set per target. */
  readonly snmp: Readonly<Record<string, unknown>>;
  readonly registry: DriverRegistry;
  readonly concurrency?: number;
  readonly ratePerSecond?: number;
  readonly signal?: AbortSignal;
  readonly onResult?: (result: SweepResult, done: number, total: number) => void;
}

export interface SweepResult {
  readonly address: string;
  readonly sysDescr?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * The addresses of `spec`: comma-separated IPv4 addresses and CIDR blocks (`10.0.0.0/24`; the
 * network and broadcast addresses of blocks larger than /31 are left out). Throws a RangeError
 * naming the problem.
 */
export function expandTargets(spec: string, max = MAX_TARGETS): string[] {
  const out: string[] = [];
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [ip, bitsText] = part.split('/');
    if (ip === undefined || isIP(ip) !== 4) throw new RangeError(`${part} is not an IPv4 address or CIDR block`);
    const bits = bitsText === undefined ? 32 : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > 32) throw new RangeError(`${part}: the prefix must be 0 to 32`);
    const size = 2 ** (32 - bits);
    if (out.length + size > max + (size > 2 ? 2 : 0))
      throw new RangeError(`${spec} names more than ${max} addresses; probe a smaller block`);
    const base = ipToNumber(ip) & (bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0);
    const first = size > 2 ? 1 : 0;
    const last = size > 2 ? size - 2 : size - 1;
    for (let i = first; i <= last; i++) out.push(numberToIp((base + i) >>> 0));
  }
  if (out.length === 0) throw new RangeError('name at least one address or CIDR block');
  return [...new Set(out)];
}

/** Reads sysDescr from every target; one result per target, in target order. */
export async function sweepSysDescr(targets: readonly string[], options: SweepOptions): Promise<SweepResult[]> {
  const factory = options.registry.get('svc-ds-drv-snmp');
  if (factory === undefined) throw new Error('the SNMP driver is not registered');
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 16, 256));
  const interval = 1000 / Math.max(1, options.ratePerSecond ?? 50);
  const results: SweepResult[] = new Array<SweepResult>(targets.length);
  let next = 0;
  let done = 0;
  let nextStart = Date.now();
  const basic = (options.snmp['basicConfig'] ?? {}) as Record<string, unknown>;
  const worker = async () => {
    for (let index = next++; index < targets.length && options.signal?.aborted !== true; index = next++) {
      // Rate limit: each start waits for its slot.
      const slot = nextStart;
      nextStart = Math.max(Date.now(), slot) + interval;
      const wait = slot - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const address = targets[index]!;
      const result = await probe(address);
      results[index] = result;
      options.onResult?.(result, ++done, targets.length);
    }
  };
  const probe = async (address: string): Promise<SweepResult> => {
    const config = { ...options.snmp, basicConfig: { ...basic, address } };
    const problems = factory.check(config);
    if (problems.length > 0) return { address, error: { code: 'configuration', message: problems.join('; ') } };
    const driver = factory.create({ config, origin: address, guard: options.registry.guard });
    try {
      if (driver.kind !== 'polling') throw new Error('the SNMP driver does not poll');
      const result = await driver.read(
        {
          points: [
            {
              datapointSetId: 'discovery',
              datapointId: 'sysDescr',
              originAddress: SYS_DESCR_OID,
              originDataType: 'OCTET_STRING',
              dataType: 'STRING',
              receiveMode: 'singleQuery',
              pollingGroup: '1d',
            },
          ],
          tables: [],
        },
        options.signal ?? new AbortController().signal,
      );
      const first = result.updates[0] as { rawValue?: unknown } | undefined;
      if (result.failure !== undefined)
        return { address, error: { code: result.failure.code, message: result.failure.message } };
      return typeof first?.rawValue === 'string'
        ? { address, sysDescr: first.rawValue }
        : { address, error: { code: 'protocol', message: 'the agent has no sysDescr' } };
    } catch (error) {
      const failure = toDriverError(error, address);
      return { address, error: { code: failure.code, message: failure.message } };
    } finally {
      await driver.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return results.filter((result) => result !== undefined);
}

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
