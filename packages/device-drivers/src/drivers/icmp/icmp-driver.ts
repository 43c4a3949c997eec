/**
 * `svc-ds-drv-icmp`: reachability and round-trip time. It runs the system's `ping` (iputils),
 * which uses the kernel's unprivileged ICMP sockets where `net.ipv4.ping_group_range` allows them
 * (and raw sockets where it has the capability), so Triad itself needs no privilege. Addresses:
 * `rtt` (average ms), `rttMin`, `rttMax`, `packetLoss` (percent), `reachable`, `received`,
 * `transmitted`. See docs/devices.md.
 */
import { spawn } from 'node:child_process';
import { AddressGuard } from '../../address-guard.js';
import { configProblems, hostAt, numberAt } from '../../config-values.js';
import type { DriverContext, DriverFactory, PollingDriver, ReadRequest, ReadResult } from '../../driver.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import { pointReading } from '../../point-reading.js';
import { parsePingOutput, type PingSummary } from './ping-output.js';

export const ICMP_ADDRESSES = [
  'rtt',
  'rttMin',
  'rttMax',
  'packetLoss',
  'reachable',
  'received',
  'transmitted',
] as const;

interface IcmpSettings {
  readonly address: string;
  readonly count: number;
  readonly timeoutMs: number;
}

function settings(config: Readonly<Record<string, unknown>>): IcmpSettings {
  const address = hostAt(config, 'address');
  return {
    address,
    count: numberAt(config, 'count', 4, { min: 1, max: 100, integer: true }),
    timeoutMs: numberAt(config, 'timeout', 1000, { min: 100, max: 60_000 }),
  };
}

export const icmpDriver: DriverFactory = {
  originType: 'svc-ds-drv-icmp',
  secretKeys: [],
  check: (config) => configProblems(() => settings(config)),
  targets: (config) =>
    configProblems(() => settings(config)).length > 0 ? [] : [{ host: settings(config).address, path: 'address' }],
  create(context: DriverContext): PollingDriver {
    const options = settings(context.config);
    const guard = context.guard ?? new AddressGuard();
    return {
      kind: 'polling',
      async read(request: ReadRequest, signal: AbortSignal): Promise<ReadResult> {
        // ping gets the checked address, never the name: it would resolve the name again.
        const checked = await guard.address(options.address, undefined).catch((error: unknown) => {
          throw toDriverError(error, options.address);
        });
        const summary = await ping(options, checked.address, signal);
        const timestamp = Date.now();
        const values = pingValues(summary);
        const updates = request.points.map((point) =>
          pointReading(
            point,
            Object.hasOwn(values, point.originAddress) ? values[point.originAddress] : null,
            timestamp,
          ),
        );
        const failure =
          summary.received === 0
            ? new DriverError('timeout', `no echo reply from ${options.address} to ${summary.transmitted} pings`)
            : undefined;
        return failure === undefined ? { updates } : { updates, failure };
      },
      close: () => Promise.resolve(),
    };
  },
};

/** What one ping run gives, by `originAddress`. */
function pingValues(summary: PingSummary): Readonly<Record<string, unknown>> {
  const lost = summary.transmitted === 0 ? 100 : ((summary.transmitted - summary.received) / summary.transmitted) * 100;
  const loss = Math.round(lost * 100) / 100;
  const reachable = summary.received > 0;
  return {
    rtt: summary.rttAvg,
    rttMin: summary.rttMin,
    rttMax: summary.rttMax,
    packetLoss: loss,
    loss,
    reachable,
    alive: reachable,
    received: summary.received,
    transmitted: summary.transmitted,
  };
}

/** Runs `ping -n -c COUNT -i 0.2 -W SECONDS IP`; the whole run is bounded by count × timeout. */
function ping(options: IcmpSettings, ip: string, signal: AbortSignal): Promise<PingSummary> {
  const waitSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  const args = ['-n', '-q', '-c', String(options.count), '-i', '0.2', '-W', String(waitSeconds)];
  args.push('-w', String(Math.ceil(options.count * 0.2 + waitSeconds)), '--', ip);
  return new Promise((resolve, reject) => {
    const child = spawn('ping', args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT')
        reject(new DriverError('unsupported', 'the ping command is missing: install iputils-ping'));
      else if (error.name === 'AbortError') reject(new DriverError('timeout', `ping ${options.address} was cut short`));
      else reject(new DriverError('protocol', `ping failed: ${error.message}`));
    });
    child.on('close', () => {
      const summary = parsePingOutput(out);
      if (summary !== undefined) return resolve(summary);
      const reason = err.trim().split('\n').pop() ?? '';
      if (/permitted|permission/i.test(reason))
        reject(
          new DriverError(
            'unsupported',
            `this host does not allow unprivileged ICMP (${reason}); allow it with ` +
              `sysctl net.ipv4.ping_group_range="0 2147483647", or give ping the cap_net_raw capability`,
          ),
        );
      else if (/unknown host|name or service not known|temporary failure/i.test(reason))
        reject(new DriverError('unreachable', `${options.address}: unknown host`));
      else if (/unreachable/i.test(reason)) reject(new DriverError('unreachable', `${options.address}: ${reason}`));
      else reject(new DriverError('protocol', `ping ${options.address}: ${reason || 'no summary in its output'}`));
    });
  });
}
