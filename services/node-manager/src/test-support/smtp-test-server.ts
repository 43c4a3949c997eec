/**
 * A real SMTP server for tests: aiosmtpd (Debian's `python3-aiosmtpd`) on 127.0.0.1 and a free
 * port, requiring STARTTLS with a certificate from a throwaway CA (openssl) and AUTH before any
 * mail (`smtp-test-server.py`). Messages it accepts are read back with `messages()`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@triad/device-drivers/testing';

export const PYTHON = '/usr/bin/python3';
export const OPENSSL = '/usr/bin/openssl';
export const AIOSMTPD_INSTALL = 'apt-get install python3-aiosmtpd openssl';

/** True when Debian's python3 can import aiosmtpd. */
export function aiosmtpdAvailable(): boolean {
  return spawnSync(PYTHON, ['-c', 'import aiosmtpd'], { stdio: 'ignore' }).status === 0;
}

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  /** The whole message: headers and body. */
  readonly data: string;
  /** Whether the session had switched to TLS (STARTTLS) when the mail came. */
  readonly tls: boolean;
  readonly authenticated: boolean;
}

export interface SmtpTestServer {
  readonly port: number;
  /** PEM of the CA that signed the server's certificate (for 127.0.0.1). */
  readonly ca: string;
  messages(): readonly ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpServer(user: string, password: string): Promise<SmtpTestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'triad-smtp-'));
  const ca = makeCertificates(dir);
  const port = await freePort();
  const script = fileURLToPath(new URL('./smtp-test-server.py', import.meta.url));
  const child = spawn(
    PYTHON,
    [script, String(port), path.join(dir, 'server.pem'), path.join(dir, 'server.key'), user, password],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  await waitFor(() => lines().some((line) => line['ready'] === true), 10_000, `aiosmtpd to start (${err})`);
  return {
    port,
    ca,
    messages: () => lines().filter((line) => line['ready'] === undefined) as unknown as ReceivedMail[],
    close: async () => {
      child.stdin.end();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A CA and a server certificate for 127.0.0.1 signed by it, in `dir`; returns the CA's PEM. */
function makeCertificates(dir: string): string {
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const steps = [
    ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Triad CA'],
    ['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1'],
    [
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
    ].concat(['-out', file('server.pem'), '-days', '2', '-extfile', file('san.ext')]),
  ];
  for (const args of steps) {
    const made = spawnSync(OPENSSL, args, { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr}`);
  }
  return readFileSync(file('ca.pem'), 'utf8');
}
