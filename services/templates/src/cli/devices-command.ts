/**
 * `triad devices ...`: devices of the template service over its REST API (`--url`), and `probe`,
 * which runs one template against one device right here, without a service.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { errorMessage, isObject } from '@triad/common';
import {
  DeviceCollector,
  Limiter,
  SnmpTrapHub,
  defaultDriverRegistry,
  prepareDevice,
  type DeviceNotification,
  type DeviceState,
} from '@triad/device-drivers';
import {
  EXIT,
  compileTemplatePipeline,
  formatEventLine,
  raiseExit,
  validateSource,
  type CliIo,
  type DatapointResult,
  type DeviceTemplate,
  type PipelineEvent,
} from '@triad/device-templates';
import { isDeviceValue, type DeviceValue } from '../presenters/device-presenter.js';
import { mibNameResolver, splitMibDirs } from '../templates-core.js';
import { addDiscoverCommand } from './discover-command.js';

/** Where the service is when `--url` is not given. */
export const DEFAULT_TEMPLATES_URL = 'http://127.0.0.1:8082';

export interface DevicesCommandOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Stops `watch` and `probe` without --once (tests); default SIGINT. */
  readonly signal?: AbortSignal;
}

interface ServiceOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

const collectVar = (value: string, previous: Record<string, string> = {}): Record<string, string> => {
  const at = value.indexOf('=');
  if (at < 1) throw new InvalidArgumentError('write it NAME=VALUE, e.g. ICMP_IPAddress=10.0.0.7');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
};

const parseDriverConfig = (value: string): Record<string, Record<string, unknown>> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`not JSON: ${errorMessage(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidArgumentError(
      'give an object keyed by originType, e.g. {"svc-ds-drv-snmp": {"basicConfig": {...}}}',
    );
  return parsed as Record<string, Record<string, unknown>>;
};

export function createDevicesCommand(io: CliIo, options: DevicesCommandOptions = {}): Command {
  const env = options.env ?? process.env;
  const command = new Command('devices').description(
    'Devices collected by the template service (add, list, show, values, alarms, remove, watch), and probe',
  );
  const fail = (name: string, code: number, message: string) => {
    io.stderr.write(`triad devices ${name}: ${message}\n`);
    raiseExit(io, code);
  };
  const service = (c: Command) =>
    c
      .option('--url <url>', `template service URL (default TRIAD_TEMPLATES_URL or ${DEFAULT_TEMPLATES_URL})`)
      .option('--token <token>', 'bearer token for device reads and writes (default TRIAD_TEMPLATES_TOKEN)');

  /** Calls the service; prints a problem and returns undefined on failure. */
  const call = async (name: string, o: ServiceOptions, method: string, url: string, body?: unknown) => {
    const base = (o.url ?? env['TRIAD_TEMPLATES_URL'] ?? DEFAULT_TEMPLATES_URL).replace(/\/+$/, '');
    const token = o.token ?? env['TRIAD_TEMPLATES_TOKEN'] ?? env['TRIAD_TEMPLATES_ADMIN_TOKEN'];
    let response: Response;
    try {
      response = await fetch(`${base}${url}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      fail(name, EXIT.USAGE, `cannot reach ${base} (${errorMessage(error)}); is the service running (npm start)?`);
      return undefined;
    }
    if (response.status === 204) return {};
    const reply = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const errors = Array.isArray(reply['errors']) ? (reply['errors'] as { path: string; message: string }[]) : [];
      for (const e of errors) io.stderr.write(`  ${e.path}: ${e.message}\n`);
      fail(
        name,
        response.status >= 500 ? EXIT.USAGE : EXIT.INVALID,
        typeof reply['detail'] === 'string' ? reply['detail'] : `HTTP ${response.status}`,
      );
      return undefined;
    }
    return reply;
  };
  const print = (o: ServiceOptions, value: unknown, text: () => string) =>
    io.stdout.write(o.json ? `${JSON.stringify(value, null, 2)}\n` : text());

  service(command.command('add'))
    .description('bind a stored template version to a device and start collecting')
    .requiredOption('--name <name>', 'a name for the device')
    .requiredOption('--template <id@version>', 'the template version, e.g. "Example Switch@1.0.0"')
    .option('--var <NAME=VALUE>', 'a /{NAME}/ variable (repeat)', collectVar)
    .option('--driver-config <json>', 'driver settings by originType, merged over the template', parseDriverConfig)
    .option('--json', 'print the device as JSON')
    .addHelpText(
      'after',
      '\nExample:\n' +
        '  triad devices add --name core-switch --template "Example Switch@1.0.0" --var ICMP_IPAddress=10.0.0.7 \\\n' +
        '      --driver-config \'{"svc-ds-drv-snmp": {"snmpCommunities": {"readCommunity": "s3cret"}}}\'',
    )
    .action(
      async (
        o: ServiceOptions & { name: string; template: string; var?: Record<string, string>; driverConfig?: object },
      ) => {
        const at = o.template.lastIndexOf('@');
        if (at < 1) return fail('add', EXIT.USAGE, '--template is written <templateId>@<templateVersion>');
        const body = {
          name: o.name,
          templateId: o.template.slice(0, at),
          templateVersion: o.template.slice(at + 1),
          ...(o.var ? { variables: o.var } : {}),
          ...(o.driverConfig ? { drivers: o.driverConfig } : {}),
        };
        const device = await call('add', o, 'POST', '/devices', body);
        if (device) print(o, device, () => `added device ${String(device['id'])} (${o.name})\n`);
      },
    );

  service(command.command('list'))
    .description('list the devices with their state')
    .option('--json', 'print JSON')
    .action(async (o: ServiceOptions) => {
      const reply = await call('list', o, 'GET', '/devices');
      if (!reply) return;
      const devices = reply['devices'] as {
        id: string;
        name: string;
        templateId: string;
        templateVersion: string;
        state: string;
        lastError: { message: string } | null;
      }[];
      print(o, devices, () =>
        devices.length === 0
          ? 'no devices; add one with: triad devices add --help\n'
          : devices
              .map(
                (d) =>
                  `${d.id}  ${d.state.padEnd(7)} ${d.name}  (${d.templateId}@${d.templateVersion})` +
                  `${d.lastError ? `  ${d.lastError.message}` : ''}\n`,
              )
              .join(''),
      );
    });

  for (const [name, suffix, what] of [
    ['show', '', 'the device'],
    ['values', '/values', 'its current values'],
    ['alarms', '/alarms', 'its active alarms'],
  ] as const)
    service(command.command(name))
      .description(`print ${what}`)
      .argument('<id>', 'device id (see triad devices list)')
      .option('--json', 'print JSON')
      .action(async (id: string, o: ServiceOptions) => {
        const reply = await call(name, o, 'GET', `/devices/${encodeURIComponent(id)}${suffix}`);
        if (!reply) return;
        print(o, reply, () => {
          if (name === 'values') return valuesOf(reply['values']).map(valueLine).join('') || 'no values yet\n';
          if (name === 'alarms')
            return (
              (
                reply['alarms'] as {
                  id: string;
                  severity: number;
                  text: string;
                  datapointId: string;
                  row: string | null;
                  raisedAt: string;
                  acknowledged: { by: string; at: string } | null;
                }[]
              )
                .map(
                  (a) =>
                    `${a.id}  ${a.raisedAt}  ${a.severity}  ${a.datapointId}${a.row === null ? '' : `[${a.row}]`}  ` +
                    `${a.text}${a.acknowledged ? `  (acknowledged by ${a.acknowledged.by}` : ''}` +
                    `${a.acknowledged ? ` at ${a.acknowledged.at})` : ''}\n`,
                )
                .join('') || 'no active alarms\n'
            );
          return `${JSON.stringify(reply, null, 2)}\n`;
        });
      });

  addDiscoverCommand(command, { io, service, call, fail });

  for (const [name, what, done] of [
    ['ack', 'acknowledge', 'acknowledged'],
    ['unack', 'unacknowledge', 'unacknowledged'],
  ] as const)
    service(command.command(name))
      .description(`${what} a raised alarm of a device (who and when are recorded)`)
      .argument('<id>', 'device id')
      .argument('<alarmId>', 'alarm id (the first column of triad devices alarms <id>)')
      .action(async (id: string, alarmId: string, o: ServiceOptions) => {
        const path = `/devices/${encodeURIComponent(id)}/alarms/${encodeURIComponent(alarmId)}/${what}`;
        const reply = await call(name, o, 'POST', path);
        if (reply) io.stdout.write(`${done} alarm ${alarmId} of device ${id}: ${String(reply['text'])}\n`);
      });

  service(command.command('remove'))
    .description('stop collecting and delete a device with its alarms and events')
    .argument('<id>', 'device id')
    .action(async (id: string, o: ServiceOptions) => {
      if (await call('remove', o, 'DELETE', `/devices/${encodeURIComponent(id)}`))
        io.stdout.write(`removed device ${id}\n`);
    });

  service(command.command('watch'))
    .description('print value changes and events of a device as they happen (Ctrl-C stops)')
    .argument('<id>', 'device id')
    .action(async (id: string, o: ServiceOptions) => {
      const base = (o.url ?? env['TRIAD_TEMPLATES_URL'] ?? DEFAULT_TEMPLATES_URL).replace(/\/+$/, '');
      const stop = options.signal ?? interruptSignal();
      try {
        // Device reads need a token by default (TRIAD_DEVICES_READ_ACCESS), the stream too.
        const token = o.token ?? env['TRIAD_TEMPLATES_TOKEN'] ?? env['TRIAD_TEMPLATES_ADMIN_TOKEN'];
        const response = await fetch(`${base}/devices/${encodeURIComponent(id)}/stream`, {
          signal: stop,
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        });
        if (!response.ok || response.body === null)
          return fail('watch', EXIT.INVALID, `no device ${id} (HTTP ${response.status})`);
        const decoder = new TextDecoder();
        let pending = '';
        for await (const chunk of response.body) {
          pending += decoder.decode(chunk as Uint8Array, { stream: true });
          for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n')) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event === undefined || data === undefined) continue;
            const value: unknown = event === 'value' ? JSON.parse(data) : undefined;
            io.stdout.write(isDeviceValue(value) ? valueLine(value) : `${event}  ${data}\n`);
          }
        }
      } catch (error) {
        if (!(isObject(error) && error.name === 'AbortError'))
          fail('watch', EXIT.USAGE, `cannot reach ${base} (${errorMessage(error)})`);
      }
    });

  command
    .command('probe')
    .description('run one template against one device here, without a service, and print what it reads')
    .argument('<template>', 'template file (JSON or YAML)')
    .option('--var <NAME=VALUE>', 'a /{NAME}/ variable (repeat)', collectVar)
    .option('--driver-config <json>', 'driver settings by originType, merged over the template', parseDriverConfig)
    .option('--once', 'read every polling group once, print, and exit (1 when the device is down)')
    .option(
      '--trap-port <port>',
      'receive SNMP traps and informs on this UDP port and print them (default: TRIAD_SNMP_TRAP_PORT; off when unset)',
      parseUdpPort,
    )
    .addHelpText(
      'after',
      '\nSNMP notifications reach the probe when the template has a datapoint with receiveMode\n' +
        '"subscription" (the device then registers its address and credentials, as in the service).\n' +
        "MIB names in addresses are read from TRIAD_MIB_DIRS, then the system's modules.\n" +
        '\nExamples:\n  triad templates init --driver icmp > ping.ndst.json\n' +
        '  triad devices probe ping.ndst.json --var ICMP_IPAddress=127.0.0.1 --once\n' +
        '  triad devices probe switch.ndst.json --var ICMP_IPAddress=192.0.2.7 --trap-port 1162',
    )
    .action(
      async (
        file: string,
        o: {
          var?: Record<string, string>;
          driverConfig?: Record<string, Record<string, unknown>>;
          once?: boolean;
          trapPort?: number;
        },
      ) => {
        let source: Buffer;
        try {
          source = await readFile(path.resolve(io.cwd, file));
        } catch (error) {
          return fail('probe', EXIT.USAGE, `cannot read ${file}: ${errorMessage(error)}`);
        }
        const mibDirs = splitMibDirs(env['TRIAD_MIB_DIRS']);
        const checked = validateSource(source, { file, oidNames: mibNameResolver(mibDirs) });
        if (!checked.valid) {
          for (const p of checked.errors) io.stderr.write(`${file}:${p.line}:${p.column}: ${p.message} (${p.code})\n`);
          return fail(
            'probe',
            EXIT.INVALID,
            `${file} is not a valid template; fix it first (triad templates validate ${file})`,
          );
        }
        const template = checked.document!.value as DeviceTemplate;
        let trapPort = o.trapPort;
        if (trapPort === undefined && env['TRIAD_SNMP_TRAP_PORT']) {
          try {
            trapPort = parseUdpPort(env['TRIAD_SNMP_TRAP_PORT']);
          } catch (error) {
            return fail('probe', EXIT.USAGE, `TRIAD_SNMP_TRAP_PORT: ${errorMessage(error)}`);
          }
        }
        const snmpTraps =
          trapPort === undefined
            ? undefined
            : new SnmpTrapHub({
                port: trapPort,
                ...(env['TRIAD_SNMP_TRAP_ADDRESS'] ? { address: env['TRIAD_SNMP_TRAP_ADDRESS'] } : {}),
                log: (message) => io.stderr.write(`traps: ${message}\n`),
              });
        const registry = defaultDriverRegistry({
          mqttBrokerUrl: env['TRIAD_MQTT_URL'],
          mibDirs,
          ...(snmpTraps ? { snmpTraps } : {}),
        });
        const prepared = prepareDevice(template, { variables: o.var ?? {}, drivers: o.driverConfig ?? {} }, registry);
        if (prepared.problems.length > 0) {
          for (const p of prepared.problems) io.stderr.write(`  ${p.path}: ${p.message}\n`);
          await snmpTraps?.close();
          return fail('probe', EXIT.INVALID, 'the template cannot run against this device as given');
        }
        let state = 'unknown' as DeviceState;
        const collector = new DeviceCollector({
          pipeline: compileTemplatePipeline(template),
          drivers: prepared.drivers,
          origin: prepared.origin,
          registry,
          limiter: new Limiter(16),
          sink: {
            output: (values: readonly DatapointResult[], events: readonly PipelineEvent[]) => {
              for (const value of values)
                io.stdout.write(
                  valueLine({ ...value, row: value.tableIndex === undefined ? null : String(value.tableIndex) }),
                );
              for (const event of events) io.stdout.write(`${formatEventLine(event, prepared.origin)}\n`);
            },
            problem: (p) =>
              io.stdout.write(`${new Date(p.at).toISOString()}  problem ${p.kind} #${p.count}: ${p.message}\n`),
            notification: (notification, at) => io.stdout.write(notificationLine(notification, at)),
            state: (next, error) => {
              state = next;
              io.stderr.write(
                `device ${prepared.origin} is ${next}${error ? `: ${error.message} (${error.code})` : ''}\n`,
              );
            },
          },
        });
        if (o.once) {
          await collector.pollOnce();
          await collector.stop();
          await snmpTraps?.close();
          if (state === 'down') raiseExit(io, EXIT.INVALID);
          return;
        }
        collector.start();
        const stop = options.signal ?? interruptSignal();
        await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
        await collector.stop();
        await snmpTraps?.close();
      },
    );
  return command;
}

/** What a value line shows: a value as the service sends it, or one read here by `probe`. */
type DeviceValueLine = Omit<DeviceValue, 'rawValue'>;

/** The values of a `/values` reply. */
function valuesOf(values: unknown): DeviceValue[] {
  return Array.isArray(values) ? values.filter(isDeviceValue) : [];
}

function valueLine(v: DeviceValueLine): string {
  const where = `${v.datapointSetId}/${v.datapointId}${v.row === null ? '' : `[${v.row}]`}`;
  const unit = v.unit === undefined ? '' : ` ${v.unit}`;
  return `${new Date(v.timestamp).toISOString()}  ${where} = ${JSON.stringify(v.value)}${unit}  (${v.quality})\n`;
}

/** A UDP port number from an option or the environment. */
function parseUdpPort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port < 1 || port > 65_535)
    throw new InvalidArgumentError(`a UDP port is a number from 1 to 65535, not "${text}"`);
  return port;
}

/** One line per SNMP notification `probe` receives: what, from where, and its first varbinds. */
export function notificationLine(n: DeviceNotification, at: number): string {
  const name = n.trapName === undefined ? n.trapOid : `${n.trapName} (${n.trapOid})`;
  const upTime = n.upTime === null ? '' : `, up ${(n.upTime / 100).toFixed(2)} s`;
  const varbinds = n.varbinds.map((v) => `${v.name ?? v.oid}=${v.value}`);
  if (n.varbindsOmitted > 0) varbinds.push(`+${n.varbindsOmitted} more`);
  const list = varbinds.length === 0 ? '' : `: ${varbinds.join(', ')}`;
  return `${new Date(at).toISOString()}  ${n.kind} ${name} from ${n.source}, v${n.version}${upTime}${list}\n`;
}

function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}
