/**
 * A real Net-SNMP agent (Debian's `snmpd`) for the SNMP driver's tests and benchmark: a child
 * process on 127.0.0.1 and a free UDP port, with its configuration and persistent state in a
 * temporary directory. It answers the v2c community `public`, the SNMPv3 user `triadv3` (SHA
 * authentication, AES privacy) and the users of `SNMPD_V3_USERS`, and serves two `extend` scripts whose output a test
 * changes: `testvalue` (one line, nsExtendOutput1Line) and `lines` (one row per line in
 * nsExtendOutput2Table). It listens on TCP too (`tcpPort`) and serves the SNMPv3 context
 * `SNMPD_CONTEXT`: the system group only, proxied to itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import snmp from 'net-snmp';
import { killProcess } from './kill-process.js';
import { freePort, waitFor } from './local-server.js';

export const SNMPD = '/usr/sbin/snmpd';
export const SNMPD_INSTALL = 'apt-get install snmpd snmp';

export const SNMPD_V3 = {
  usmUser: 'triadv3',
  authAlgorithm: 'SHA',
  authPassword: 'triad-auth-pass',
  privacyAlgorithm: 'AES',
  privacyPassword: 'triad-priv-pass',
} as const;

/** More v3 users, one per security level and stronger algorithms: `snmpV3Security` settings. */
export const SNMPD_V3_USERS = {
  noAuthNoPriv: { usmUser: 'triadnoauth', authPassword: '', privacyPassword: '' },
  authNoPriv: { usmUser: 'triadauth', authAlgorithm: 'SHA-256', authPassword: 'triad-auth-pass', privacyPassword: '' },
  authPriv512: {
    usmUser: 'triad512',
    authAlgorithm: 'SHA-512',
    authPassword: 'triad-auth-pass',
    privacyAlgorithm: 'AES-256',
    privacyPassword: 'triad-priv-pass',
  },
} as const;

/** A non-default SNMPv3 context: it holds the system group (1.3.6.1.2.1.1) and nothing else. */
export const SNMPD_CONTEXT = 'triadctx';

/** OIDs of the extends, by the token's OID encoding (length, then the characters). */
export function extendIndex(token: string): string {
  return [token.length, ...[...token].map((c) => c.charCodeAt(0))].join('.');
}
/** nsExtendOutput1Line."testvalue": the first line of the `testvalue` script's output. */
export const TESTVALUE_OID = `1.3.6.1.4.1.8072.1.3.2.3.1.1.${extendIndex('testvalue')}`;
/** nsExtendOutput2Table: one row per output line of every extend, indexed by token and line number. */
export const EXTEND_LINES_TABLE = '1.3.6.1.4.1.8072.1.3.2.4';

export interface SnmpdServer {
  readonly port: number;
  /** The TCP port the agent listens on as well (RFC 3430). */
  readonly tcpPort: number;
  readonly community: string;
  /** The agent's process id while it runs (the benchmark reads its CPU time). */
  pid(): number | undefined;
  /** Sets what the `testvalue` extend prints (the agent re-reads it after at most 1 s). */
  setTestValue(text: string): Promise<void>;
  /** Sets the lines the `lines` extend prints (rows of nsExtendOutput2Table). */
  setLines(lines: readonly string[]): Promise<void>;
  /** Kills the agent (SIGKILL); `start` brings it back on the same port. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Kills the agent and removes its directory. */
  close(): Promise<void>;
}

/** A free UDP port on 127.0.0.1 (the kernel picks it; the agent started next binds it). */
export async function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

export async function startSnmpd(): Promise<SnmpdServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'triad-snmpd-'));
  const port = await freeUdpPort();
  const tcpPort = await freePort();
  const valueFile = path.join(dir, 'testvalue.txt');
  const linesFile = path.join(dir, 'lines.txt');
  await writeFile(valueFile, '0\n');
  await writeFile(linesFile, 'first\n');
  const conf = path.join(dir, 'snmpd.conf');
  await writeFile(
    conf,
    [
      `[snmp] persistentDir ${path.join(dir, 'persist')}`,
      `agentAddress udp:127.0.0.1:${port},tcp:127.0.0.1:${tcpPort}`,
      'rocommunity public 127.0.0.1',
      `createUser ${SNMPD_V3.usmUser} SHA ${SNMPD_V3.authPassword} AES ${SNMPD_V3.privacyPassword}`,
      `rouser ${SNMPD_V3.usmUser} priv`,
      `createUser triadnoauth`,
      'rouser triadnoauth noauth',
      `createUser triadauth SHA-256 ${SNMPD_V3.authPassword}`,
      'rouser triadauth auth',
      `createUser triad512 SHA-512 ${SNMPD_V3.authPassword} AES-256 ${SNMPD_V3.privacyPassword}`,
      'rouser triad512 priv',
      `extend -cacheTime 1 testvalue /bin/cat ${valueFile}`,
      `extend -cacheTime 1 lines /bin/cat ${linesFile}`,
      `proxy -Cn ${SNMPD_CONTEXT} -v 2c -c public udp:127.0.0.1:${port} .1.3.6.1.2.1.1`,
      'dontLogTCPWrappersConnects yes',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    output = '';
    const args = ['-f', '-Le', '-C', '-c', conf, '-p', path.join(dir, 'snmpd.pid')];
    // MIBS empty: the agent needs no MIB files, and loading Debian's partial set only logs noise.
    const started = spawn(SNMPD, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MIBS: '', MIBDIRS: dir },
    });
    child = started;
    started.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    started.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    await waitFor(
      async () => {
        if (started.exitCode !== null) throw new Error(`snmpd exited with ${started.exitCode}: ${output}`);
        return answers(port);
      },
      10_000,
      `snmpd on udp 127.0.0.1:${port} (${output.trim()})`,
    );
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    await killProcess(running);
  };
  await start();
  return {
    port,
    tcpPort,
    community: 'public',
    pid: () => child?.pid,
    setTestValue: (text) => writeFile(valueFile, `${text}\n`),
    setLines: (lines) => writeFile(linesFile, lines.map((line) => `${line}\n`).join('')),
    kill,
    start,
    async close() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** True when the agent answers a v2c GET of sysUpTime.0. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const session = snmp.createSession('127.0.0.1', 'public', {
      port,
      version: snmp.Version2c,
      retries: 0,
      timeout: 200,
    });
    session.on('error', () => undefined);
    session.get(['1.3.6.1.2.1.1.3.0'], (error) => {
      session.close();
      resolve(error === null);
    });
  });
}
