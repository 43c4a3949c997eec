/**
 * A real mosquitto broker for tests: a child process on 127.0.0.1 and a free port, with a
 * generated configuration (anonymous, or users in a password file made by `mosquitto_passwd`;
 * optionally TLS with a certificate from a throwaway CA made by `openssl`).
 * `stop` and `start` kill and restart it on the same port, for tests of lost connections.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { killProcess } from './kill-process.js';
import { freePort, waitFor } from './local-server.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';
export const OPENSSL = '/usr/bin/openssl';
export const MOSQUITTO_INSTALL = 'apt-get install mosquitto mosquitto-clients';

export interface MosquittoOptions {
  /** User name → password; when given, anonymous clients are refused. */
  readonly users?: Readonly<Record<string, string>>;
  /** More configuration lines (`max_queued_messages 0`...). */
  readonly extraConfig?: readonly string[];
  /** Serve MQTT over TLS with a certificate for 127.0.0.1 from a CA made for the test (openssl). */
  readonly tls?: boolean;
}

export interface MosquittoServer {
  readonly port: number;
  /** `mqtt://127.0.0.1:<port>` (`mqtts://` with TLS) */
  readonly url: string;
  /** With TLS: the PEM of the CA that signed the broker's certificate. */
  readonly ca: string | undefined;
  /** Kills the broker (SIGKILL: clients see the connection drop, as with a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same configuration. */
  start(): Promise<void>;
  /** Stops the broker and removes its files. */
  close(): Promise<void>;
  /** What the broker wrote to stderr, for failing tests. */
  output(): string;
}

export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'triad-mosquitto-'));
  const port = await freePort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    // As root mosquitto drops to the user "mosquitto", which could not read the password file.
    `user ${userInfo().username}`,
  ];
  if (options.users === undefined) lines.push('allow_anonymous true');
  else {
    const passwords = path.join(dir, 'passwd');
    writeFileSync(passwords, '', { mode: 0o600 });
    for (const [user, password] of Object.entries(options.users)) {
      const made = spawnSync(MOSQUITTO_PASSWD, ['-b', passwords, user, password], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
    }
    lines.push('allow_anonymous false', `password_file ${passwords}`);
  }
  const ca = options.tls === true ? makeCertificates(dir) : undefined;
  if (ca !== undefined)
    lines.push(
      `cafile ${path.join(dir, 'ca.pem')}`,
      `certfile ${path.join(dir, 'server.pem')}`,
      `keyfile ${path.join(dir, 'server.key')}`,
    );
  lines.push(...(options.extraConfig ?? []));
  const configFile = path.join(dir, 'mosquitto.conf');
  writeFileSync(configFile, lines.join('\n') + '\n');

  let child: ChildProcess | undefined;
  let stderr = '';
  const start = async () => {
    const started = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    started.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitFor(
      async () => {
        if (started.exitCode !== null) throw new Error(`mosquitto exited with ${started.exitCode}: ${stderr}`);
        return accepts(port);
      },
      10_000,
      `mosquitto on port ${port}`,
    );
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    await killProcess(running);
  };
  await start();
  return {
    port,
    url: `${ca === undefined ? 'mqtt' : 'mqtts'}://127.0.0.1:${port}`,
    ca,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => stderr,
  };
}

/** A CA and a server certificate for 127.0.0.1 it signed, in `dir`; returns the CA's PEM. */
function makeCertificates(dir: string): string {
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const steps = [
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Triad test CA',
    ],
    ['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1'],
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')].concat([
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '2',
      '-extfile',
      file('san.ext'),
    ]),
  ];
  for (const args of steps) {
    const made = spawnSync(OPENSSL, args, { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr}`);
  }
  return readFileSync(file('ca.pem'), 'utf8');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
