/**
 * `triad devices discover`: `POST /devices/discover` over SNMP (`--snmp`) or OPC UA (`--opcua`),
 * with the settings of each protocol as flags, printing one line per address.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { errorMessage } from '@triad/common';
import { EXIT, type CliIo } from '@triad/device-templates';

/** What `discover` needs of `triad devices`: the service call and the printer. */
export interface DiscoverCommandContext {
  readonly io: CliIo;
  /** Adds `--url` and `--token`. */
  readonly service: (command: Command) => Command;
  /** Calls the service; prints a problem and returns undefined on failure. */
  readonly call: (
    name: string,
    options: DiscoverOptions,
    method: string,
    url: string,
    body?: unknown,
  ) => Promise<Record<string, unknown> | undefined>;
  readonly fail: (name: string, code: number, message: string) => void;
}

interface DiscoverOptions {
  url?: string;
  token?: string;
  json?: boolean;
  snmp?: string;
  opcua?: string;
  port?: string;
  add?: boolean;
  // SNMP
  community?: string;
  snmpVersion?: string;
  user?: string;
  authPassword?: string;
  privPassword?: string;
  // OPC UA
  securityMode?: string;
  securityPolicy?: string;
  username?: string;
  password?: string;
  identityCert?: string;
  identityKey?: string;
  serverCertificate?: string;
  connectTimeout?: number;
}

interface DiscoverResult {
  address: string;
  sysDescr?: string;
  endpointUrl?: string;
  description?: string;
  objects?: string[];
  error?: { code: string; message: string };
  templates: { templateId: string; templateVersion: string }[];
  device?: { id: string };
  existing?: boolean;
}

const SNMP_ONLY = ['community', 'snmpVersion', 'user', 'authPassword', 'privPassword'] as const;
const OPCUA_ONLY = [
  'securityMode',
  'securityPolicy',
  'username',
  'password',
  'identityCert',
  'identityKey',
  'serverCertificate',
  'connectTimeout',
] as const;

const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const milliseconds = (value: string): number => {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100 || ms > 120_000)
    throw new InvalidArgumentError('give milliseconds from 100 to 120000, e.g. 5000');
  return ms;
};

/** Adds `discover` to `triad devices`. */
export function addDiscoverCommand(devices: Command, context: DiscoverCommandContext): void {
  const { io, service, call, fail } = context;
  service(devices.command('discover'))
    .description(
      'probe named addresses over SNMP (sysDescr) or OPC UA (BuildInfo, the Objects folder) and propose, ' +
        'or --add, devices for the matching templates',
    )
    .option('--snmp <targets>', 'probe over SNMP: IPv4 addresses and CIDR blocks, comma-separated (at most 1,024)')
    .option('--opcua <targets>', 'probe over OPC UA: IPv4 addresses and CIDR blocks, comma-separated (at most 1,024)')
    .option('--port <port>', 'agent UDP port (SNMP, default 161) or server TCP port (OPC UA, default 4840)')
    .option('--community <community>', 'SNMP v1/v2c read community (default public)')
    .option('--snmp-version <version>', 'SNMP version: 1, 2 (v2c) or 3 (default 2)')
    .option('--user <name>', 'SNMPv3 user')
    .option('--auth-password <password>', 'SNMPv3 authentication password (SHA)')
    .option('--priv-password <password>', 'SNMPv3 privacy password (AES)')
    .addOption(
      new Option('--security-mode <mode>', 'OPC UA message security (default None)').choices([
        'None',
        'Sign',
        'SignAndEncrypt',
      ]),
    )
    .addOption(
      new Option(
        '--security-policy <policy>',
        'OPC UA security policy (default Basic256Sha256 with Sign or SignAndEncrypt, else None)',
      ).choices(['None', 'Basic256Sha256']),
    )
    .option('--username <name>', 'OPC UA user-name identity (with --password; default anonymous)')
    .option('--password <password>', 'password of the OPC UA user (stored sealed with --add)')
    .option(
      '--identity-cert <file>',
      'OPC UA certificate identity: the user certificate, PEM file (with --identity-key)',
    )
    .option('--identity-key <file>', 'private key of the user certificate, PEM file (stored sealed with --add)')
    .option('--server-certificate <sha1>', 'OPC UA: trust only the server certificate with this SHA-1 thumbprint')
    .option('--connect-timeout <ms>', 'OPC UA: give up connecting after this long (default 5000)', milliseconds)
    .option('--add', 'create the devices, not only propose them')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  triad devices discover --snmp 10.0.0.0/24 --community public --add\n' +
        '  triad devices discover --opcua 10.0.0.7,10.0.1.0/28 --security-mode SignAndEncrypt \\\n' +
        '      --username operator --password s3cret',
    )
    .action(async (o: DiscoverOptions) => {
      if ((o.snmp === undefined) === (o.opcua === undefined))
        return fail('discover', EXIT.USAGE, 'give the targets with either --snmp or --opcua (one of them)');
      const protocol = o.opcua !== undefined ? 'opcua' : 'snmp';
      const foreign = (protocol === 'opcua' ? SNMP_ONLY : OPCUA_ONLY).filter((key) => o[key] !== undefined);
      if (foreign.length > 0)
        return fail(
          'discover',
          EXIT.USAGE,
          `${foreign.map(flagOf).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} for ` +
            `${protocol === 'opcua' ? 'SNMP' : 'OPC UA'}; drop ${foreign.length === 1 ? 'it' : 'them'} or probe ` +
            `with ${protocol === 'opcua' ? '--snmp' : '--opcua'}`,
        );
      const port = o.port === undefined ? undefined : Number(o.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535))
        return fail('discover', EXIT.USAGE, `--port must be 1 to 65535; it is ${o.port}`);
      let body: Record<string, unknown>;
      if (protocol === 'opcua') {
        const opcua = await opcuaSettings(o, port, io.cwd).catch((error: unknown) => errorMessage(error));
        if (typeof opcua === 'string') return fail('discover', EXIT.USAGE, opcua);
        body = { targets: o.opcua, protocol, opcua, add: o.add === true };
      } else body = { targets: o.snmp, snmp: snmpSettings(o, port), add: o.add === true };
      const targets = protocol === 'opcua' ? o.opcua : o.snmp;
      io.stderr.write(`probing ${targets} over ${protocol === 'opcua' ? 'OPC UA' : 'SNMP'} (50 a second at most)...\n`);
      const reply = await call('discover', o, 'POST', '/devices/discover', body);
      if (!reply) return;
      const results = reply['results'] as DiscoverResult[];
      io.stdout.write(o.json ? `${JSON.stringify(results, null, 2)}\n` : results.map(resultLine).join(''));
    });
}

function snmpSettings(o: DiscoverOptions, port: number | undefined): Record<string, unknown> {
  return {
    basicConfig: { port: port ?? 161, version: Number(o.snmpVersion ?? '2'), timeout: 2000, retries: 1 },
    ...(o.community !== undefined ? { snmpCommunities: { readCommunity: o.community } } : {}),
    ...(o.user !== undefined
      ? {
          snmpV3Security: {
            usmUser: o.user,
            ...(o.authPassword !== undefined ? { authAlgorithm: 'SHA', authPassword: o.authPassword } : {}),
            ...(o.privPassword !== undefined ? { privacyAlgorithm: 'AES', privacyPassword: o.privPassword } : {}),
          },
        }
      : {}),
  };
}

/** The `opcua` object of the request: the driver's settings (docs/devices.md, OPC UA) and `port`. */
async function opcuaSettings(
  o: DiscoverOptions,
  port: number | undefined,
  cwd: string,
): Promise<Record<string, unknown>> {
  if ((o.username === undefined) !== (o.password === undefined))
    throw new Error('--username and --password go together (the user-name identity)');
  if ((o.identityCert === undefined) !== (o.identityKey === undefined))
    throw new Error('--identity-cert and --identity-key go together (the certificate identity)');
  if (o.username !== undefined && o.identityCert !== undefined)
    throw new Error('give one identity: --username with --password, or --identity-cert with --identity-key');
  const read = async (file: string, flag: string) => {
    try {
      return await readFile(path.resolve(cwd, file), 'utf8');
    } catch (error) {
      throw new Error(`${flag}: cannot read ${file} (${errorMessage(error)})`);
    }
  };
  const identity =
    o.username !== undefined
      ? { type: 'username', userName: o.username, password: o.password }
      : o.identityCert !== undefined && o.identityKey !== undefined
        ? {
            type: 'certificate',
            certificate: await read(o.identityCert, '--identity-cert'),
            privateKey: await read(o.identityKey, '--identity-key'),
          }
        : undefined;
  return {
    ...(port !== undefined ? { port } : {}),
    ...(o.securityMode !== undefined ? { securityMode: o.securityMode } : {}),
    ...(o.securityPolicy !== undefined ? { securityPolicy: o.securityPolicy } : {}),
    ...(identity !== undefined ? { identity } : {}),
    ...(o.serverCertificate !== undefined ? { serverCertificate: o.serverCertificate } : {}),
    ...(o.connectTimeout !== undefined ? { connectTimeout: o.connectTimeout } : {}),
  };
}

function resultLine(r: DiscoverResult): string {
  const found = r.sysDescr ?? r.description;
  if (found === undefined) {
    const why = r.error === undefined ? 'no answer' : `${r.error.message} (${r.error.code})`;
    return `${r.address}  ${r.endpointUrl === undefined ? '' : `${r.endpointUrl}  `}${why}\n`;
  }
  const templates = r.templates.map((t) => `${t.templateId}@${t.templateVersion}`).join(', ') || 'no template';
  const device =
    r.device === undefined ? '' : `  ${r.existing ? 'already watched by' : 'added as'} device ${r.device.id}`;
  const where = r.endpointUrl === undefined ? '' : `${r.endpointUrl}  `;
  const objects = r.objects === undefined ? '' : `\n    objects: ${r.objects.join(', ') || 'none'}`;
  return `${r.address}  ${where}${JSON.stringify(found)}  -> ${templates}${device}${objects}\n`;
}
