import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { SecretKeyCheckTable, type Database } from '@triad/db';
import { verifySecretKey, type SecretCipher } from '@triad/service-kit';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { ServiceRunRepository, type ServiceRun } from '../repositories/service-run-repository.js';
import { TopologyRepository } from '../repositories/topology-repository.js';
import { NotificationChannelRepository } from '../repositories/notification-channel-repository.js';
import { CHANNEL_SECRETS } from '../secrets/channel-secrets.js';
import { CookieCipher, SECRET_KEY_BYTES } from '../secrets/cookie-cipher.js';
import {
  decodeSecretKey,
  loadSecretKeys,
  NEW_SECRET_KEY_FILE,
  NODE_MANAGER_KEY_NAMES,
  SECRET_KEY_FILE,
  writeKeyFile,
} from '../secrets/secret-key-store.js';

/** What `rotateSecretKey` needs. */
export interface RotateSecretKeyOptions {
  readonly database: Database<NodeManagerDatabase>;
  readonly dataDir: string;
  /** `TRIAD_SECRET_KEY` (the current key) when the service runs with it; the key file otherwise. */
  readonly secretKey?: string | undefined;
  /** With `secretKey`: the key to rotate to (`TRIAD_NEW_SECRET_KEY`), 64 hex characters or base64. */
  readonly newSecretKey?: string | undefined;
  /** Rotate although a service run is recorded (it was killed on another machine). */
  readonly force?: boolean;
  /** This machine's name; default `os.hostname()`. */
  readonly host?: string;
  /** True when process `pid` of this machine lives; default a signal-0 probe. */
  readonly isAlive?: (pid: number) => boolean;
}

/** What a rotation did. */
export interface RotateSecretKeyOutcome {
  /** Stored node cookies sealed again with the new key. */
  readonly resealed: number;
  /** The key file now holding the new key, or `setting` when `TRIAD_SECRET_KEY` must be changed. */
  readonly keySource: string;
  /** Runs of services on this machine that had died without removing their record. */
  readonly staleRuns: number;
}

/** Why a rotation was refused; nothing was changed. */
export class KeyRotationRefused extends Error {
  override readonly name = 'KeyRotationRefused';
  /** The service runs recorded, when that is the reason. */
  readonly running: readonly ServiceRun[];
  constructor(message: string, running: readonly ServiceRun[] = []) {
    super(message);
    this.running = running;
  }
}

/**
 * Rotates the node-cookie key of a stopped service: every stored cookie is opened with the current
 * key and sealed with a new one, in one transaction. With the key file, a new random key is
 * written to `node-manager.key.new` (0600) first, the cookies are resealed, then the new file
 * replaces `node-manager.key`; a rotation cut short anywhere is finished by the next start (or the
 * next rotation), as both keys stay on disk until the rename. With `TRIAD_SECRET_KEY`, the new key
 * comes from `newSecretKey` and the caller must set `TRIAD_SECRET_KEY` to it before the next start.
 *
 * A running service keeps sealing with the key it loaded, so cookies it stored after the rotation
 * would be lost with the old key: the rotation is refused while a service run is recorded in the
 * database (`nm_service_runs`), unless `force`. Runs recorded by dead processes of this machine
 * are removed first. @throws KeyRotationRefused (nothing changed), CookieSealError (a stored
 * cookie no key opens; nothing changed), SecretKeyMismatchError (the current key is not the one
 * the database records; nothing changed). The database then records the new key as expected.
 */
export async function rotateSecretKey(options: RotateSecretKeyOptions): Promise<RotateSecretKeyOutcome> {
  const runs = new ServiceRunRepository(options.database);
  const host = options.host ?? hostname();
  const isAlive = options.isAlive ?? processAlive;
  let staleRuns = 0;
  const running: ServiceRun[] = [];
  for (const run of await runs.list()) {
    if (run.host === host && !isAlive(run.pid)) {
      await runs.forget(run.id);
      staleRuns += 1;
    } else running.push(run);
  }
  if (running.length > 0 && !options.force) {
    const which = running.map((run) => `pid ${run.pid} on ${run.host}`).join(', ');
    throw new KeyRotationRefused(
      `the node manager is running (${which}); stop it first, as a running service keeps sealing ` +
        'cookies with the key it loaded. If it is not running (killed on another machine), add --force',
      running,
    );
  }
  const topology = new TopologyRepository(options.database);
  const checks = new SecretKeyCheckTable(options.database, 'nm_secret_key_checks');
  if (options.secretKey !== undefined && options.secretKey !== '') {
    if (options.newSecretKey === undefined || options.newSecretKey === '')
      throw new KeyRotationRefused(
        'TRIAD_SECRET_KEY is set, so the new key cannot be a file: put the new key in ' +
          'TRIAD_NEW_SECRET_KEY (e.g. `openssl rand -hex 32`) and run again',
      );
    const fresh = decodeSecretKey(options.newSecretKey, 'TRIAD_NEW_SECRET_KEY');
    const current = decodeSecretKey(options.secretKey);
    if (fresh.equals(current)) throw new KeyRotationRefused('TRIAD_NEW_SECRET_KEY is the current key');
    // The current key must be the database's (recorded now if nothing is yet), the new one is after.
    await verifySecretKey(new CookieCipher([current]), checks, NODE_MANAGER_KEY_NAMES);
    const rotating = new CookieCipher([fresh, current]);
    const resealed = await topology.resealCookies(rotating);
    await resealChannelSecrets(options.database, rotating);
    await (await verifySecretKey(rotating, checks, NODE_MANAGER_KEY_NAMES)).commit();
    return { resealed, keySource: 'setting', staleRuns };
  }
  const pending = path.join(options.dataDir, NEW_SECRET_KEY_FILE);
  // A pending key left by an interrupted rotation is kept: cookies may already be sealed with it.
  const before = await loadSecretKeys({ dataDir: options.dataDir });
  if (!before.pending) await writeKeyFile(pending, randomBytes(SECRET_KEY_BYTES));
  const keys = await loadSecretKeys({ dataDir: options.dataDir });
  const check = await verifySecretKey(keys.cipher, checks, NODE_MANAGER_KEY_NAMES);
  const resealed = await topology.resealCookies(keys.cipher);
  await resealChannelSecrets(options.database, keys.cipher);
  await check.commit();
  await keys.finish();
  return { resealed, keySource: path.join(options.dataDir, SECRET_KEY_FILE), staleRuns };
}

/** Notification channel secrets share the cookies' keys (docs/decisions/0043): they rotate with them. */
async function resealChannelSecrets(database: Database<NodeManagerDatabase>, cipher: SecretCipher): Promise<void> {
  const channels = new NotificationChannelRepository(database, cipher.withPurpose(CHANNEL_SECRETS));
  await channels.resealSecrets();
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
