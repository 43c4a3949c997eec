/**
 * The SNMP trap and inform receiver: one UDP port for every device (net-snmp's Receiver), v1 and
 * v2c traps by community, v3 traps and informs by USM user, informs acknowledged. A notification
 * counts only when it comes from the address of a known device (`sources`) and carries one of
 * that device's communities or users; everything else is counted, logged at most once a minute,
 * and dropped. Datagrams over `maxPacketBytes` and beyond `perSourcePerSecond` are dropped before
 * they are decoded. See docs/devices.md, "Traps and informs", and decision 0049.
 */
import { createSocket, type RemoteInfo, type Socket, type SocketType } from 'node:dgram';
import snmp from 'net-snmp';
import { naturalValue } from './snmp-values.js';

/** What the receiver knows of one device that may send notifications. */
export interface TrapSource {
  readonly deviceId: string;
  /** v1/v2c communities the device's traps may carry (its read community, usually). */
  readonly communities: readonly string[];
  /** v3 user names the device's notifications may carry. */
  readonly users: readonly string[];
}

/** One varbind of a notification, its value as the driver reads values (numbers, text, OIDs). */
export interface TrapVarbind {
  readonly oid: string;
  readonly value: unknown;
}

export interface ReceivedTrap {
  readonly deviceId: string;
  readonly source: string;
  readonly version: '1' | '2c' | '3';
  readonly kind: 'trap' | 'inform';
  /** snmpTrapOID.0 (v2c, v3), or for v1 the OID RFC 3584 derives from enterprise and trap numbers. */
  readonly trapOid: string;
  /** sysUpTime.0 of the notification, hundredths of a second, when it has one. */
  readonly upTime: number | undefined;
  /** The other varbinds. */
  readonly varbinds: readonly TrapVarbind[];
}

export interface TrapCredentials {
  readonly communities: readonly string[];
  readonly users: readonly snmp.User[];
}

export interface TrapReceiverLimits {
  /** Larger datagrams are dropped undecoded. */
  readonly maxPacketBytes: number;
  /** Datagrams per source address and second; more are dropped undecoded. */
  readonly perSourcePerSecond: number;
}

export const TRAP_RECEIVER_LIMITS: TrapReceiverLimits = Object.freeze({
  maxPacketBytes: 8192, // 8 KiB: a notification with many varbinds still fits
  perSourcePerSecond: 50,
});

export interface TrapReceiverOptions {
  readonly port: number;
  /** Address to bind; default all IPv4 addresses. */
  readonly address?: string;
  /** The device at a source address, or `undefined` for an unknown source. */
  readonly sources: (address: string) => TrapSource | undefined;
  /** The credentials notifications may carry: every known device's communities and v3 users (with keys). */
  readonly credentials?: TrapCredentials;
  readonly onTrap: (trap: ReceivedTrap) => void;
  readonly log?: (message: string) => void;
  readonly limits?: TrapReceiverLimits;
  readonly now?: () => number;
}

/** Counts since the start: what was taken, and why the rest was not. */
export interface TrapReceiverStats {
  received: number;
  unknownSource: number;
  wrongCredentials: number;
  tooLarge: number;
  rateLimited: number;
  malformed: number;
}

const SNMP_TRAP_OID = '1.3.6.1.6.3.1.1.4.1.0';
const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const LOG_EVERY_MS = 60_000;
/** v1 generic traps 0..5 as the SNMPv2 OIDs of RFC 3584 (coldStart ... egpNeighborLoss). */
const V1_GENERIC = '1.3.6.1.6.3.1.1.5';

export class SnmpTrapReceiver {
  readonly #options: TrapReceiverOptions;
  readonly #limits: TrapReceiverLimits;
  readonly #now: () => number;
  #receiver: NetSnmpReceiver | undefined;
  readonly #counts = new Map<string, { second: number; count: number }>();
  #lastLog = Number.NEGATIVE_INFINITY;
  #unlogged = 0;
  readonly stats: TrapReceiverStats = {
    received: 0,
    unknownSource: 0,
    wrongCredentials: 0,
    tooLarge: 0,
    rateLimited: 0,
    malformed: 0,
  };

  constructor(options: TrapReceiverOptions) {
    this.#options = options;
    this.#limits = options.limits ?? TRAP_RECEIVER_LIMITS;
    this.#now = options.now ?? Date.now;
  }

  /** Binds the port; resolves once listening, rejects when the port cannot be bound. */
  async start(): Promise<void> {
    let bound: Socket | undefined;
    const dgramModule = {
      createSocket: (type: SocketType) => {
        const socket = createSocket(type);
        bound = socket;
        const on = socket.on.bind(socket) as (event: string, listener: (...args: never[]) => void) => Socket;
        // The limits apply before net-snmp decodes anything.
        (socket as { on: unknown }).on = (event: string, listener: (message: Buffer, rinfo: RemoteInfo) => void) =>
          event === 'message'
            ? on('message', (message: Buffer, rinfo: RemoteInfo) => {
                if (this.#admit(message, rinfo)) listener(message, rinfo);
              })
            : on(event, listener);
        return socket;
      },
    };
    const options = {
      port: this.#options.port,
      address: this.#options.address ?? '0.0.0.0',
      includeAuthentication: true,
      dgramModule,
    };
    const callback = (error: Error | null, data?: { pdu: TrapPdu; rinfo: RemoteInfo }) => this.#notified(error, data);
    const receiver = snmp.createReceiver(options, callback) as NetSnmpReceiver;
    this.#receiver = receiver;
    this.setCredentials(this.#options.credentials ?? { communities: [], users: [] });
    await new Promise<void>((resolve, reject) => {
      if (bound === undefined) return reject(new Error('the trap receiver opened no socket'));
      const socket = bound;
      socket.once('listening', () => resolve());
      socket.once('error', reject);
    });
  }

  /** Replaces the communities and v3 users taken (devices added, changed or removed). */
  setCredentials(credentials: TrapCredentials): void {
    const authorizer = this.#receiver?.getAuthorizer();
    if (authorizer === undefined) return;
    for (const community of [...authorizer.getCommunities()]) authorizer.deleteCommunity(community);
    for (const community of new Set(credentials.communities)) authorizer.addCommunity(community);
    for (const user of [...authorizer.getUsers()]) authorizer.deleteUser(user.name);
    for (const user of credentials.users) authorizer.addUser(user);
  }

  close(): Promise<void> {
    const receiver = this.#receiver;
    this.#receiver = undefined;
    if (receiver === undefined) return Promise.resolve();
    return new Promise((resolve) => receiver.close(() => resolve()));
  }

  #admit(message: Buffer, rinfo: RemoteInfo): boolean {
    if (message.length > this.#limits.maxPacketBytes) {
      this.stats.tooLarge++;
      this.#note(
        `a ${message.length}-byte datagram from ${rinfo.address} is over ${this.#limits.maxPacketBytes} bytes`,
      );
      return false;
    }
    const second = Math.floor(this.#now() / 1000);
    const count = this.#counts.get(rinfo.address);
    if (count === undefined || count.second !== second) {
      if (this.#counts.size > 10_000) this.#counts.clear();
      this.#counts.set(rinfo.address, { second, count: 1 });
      return true;
    }
    if (++count.count <= this.#limits.perSourcePerSecond) return true;
    this.stats.rateLimited++;
    this.#note(`${rinfo.address} sends more than ${this.#limits.perSourcePerSecond} datagrams a second`);
    return false;
  }

  #notified(error: Error | null, data: { pdu: TrapPdu; rinfo: RemoteInfo } | undefined): void {
    if (error !== null || data === undefined) {
      const rinfo = (error as { rinfo?: RemoteInfo } | null)?.rinfo;
      // net-snmp itself refuses a community or user that no device has, before the check below.
      if (/^Local (community not found|user)/.test(error?.message ?? '')) {
        this.stats.wrongCredentials++;
        this.#note(
          `a notification from ${rinfo?.address ?? 'an unknown address'} carried a community or user no device ` +
            'is configured with, and was dropped',
        );
        return;
      }
      this.stats.malformed++;
      this.#note(`a notification from ${rinfo?.address ?? 'an unknown address'} was refused: ${error?.message ?? ''}`);
      return;
    }
    const { pdu, rinfo } = data;
    const source = this.#options.sources(rinfo.address);
    if (source === undefined) {
      this.stats.unknownSource++;
      this.#note(`a notification from ${rinfo.address}, which is no device's address, was dropped`);
      return;
    }
    const version = pdu.user !== undefined ? '3' : pdu.type === snmp.PduType.Trap ? '1' : '2c';
    const allowed =
      version === '3'
        ? pdu.user !== undefined && source.users.includes(pdu.user)
        : pdu.community !== undefined && source.communities.includes(pdu.community);
    if (!allowed) {
      this.stats.wrongCredentials++;
      this.#note(
        `a notification from ${rinfo.address} (device ${source.deviceId}) carried a community or user ` +
          `the device is not configured with, and was dropped`,
      );
      return;
    }
    this.stats.received++;
    this.#options.onTrap(toTrap(source.deviceId, rinfo.address, version, pdu));
  }

  /** Logs at most once a minute, with the count of what was not logged. */
  #note(message: string): void {
    const now = this.#now();
    if (now - this.#lastLog < LOG_EVERY_MS) {
      this.#unlogged++;
      return;
    }
    const more = this.#unlogged > 0 ? ` (and ${this.#unlogged} more dropped in the last minute)` : '';
    this.#lastLog = now;
    this.#unlogged = 0;
    this.#options.log?.(`SNMP trap receiver: ${message}${more}`);
  }
}

/** The methods of net-snmp's Receiver this class calls (its typings say `any`). */
interface NetSnmpReceiver {
  getAuthorizer(): {
    addUser(user: snmp.User): void;
    deleteUser(name: string): void;
    getUsers(): readonly { readonly name: string }[];
    addCommunity(community: string): void;
    deleteCommunity(community: string): void;
    getCommunities(): readonly string[];
  };
  close(callback: () => void): void;
}

/** The fields of net-snmp's notification PDUs this receiver reads. */
interface TrapPdu {
  readonly type: number;
  readonly varbinds: readonly snmp.Varbind[];
  readonly community?: string;
  readonly user?: string;
  readonly enterprise?: string;
  readonly generic?: number;
  readonly specific?: number;
  readonly upTime?: number;
}

function toTrap(deviceId: string, source: string, version: '1' | '2c' | '3', pdu: TrapPdu): ReceivedTrap {
  const kind = pdu.type === snmp.PduType.InformRequest ? 'inform' : 'trap';
  if (version === '1') {
    const generic = pdu.generic ?? 6;
    const trapOid = generic < 6 ? `${V1_GENERIC}.${generic + 1}` : `${pdu.enterprise ?? ''}.0.${pdu.specific ?? 0}`;
    return { deviceId, source, version, kind, trapOid, upTime: pdu.upTime, varbinds: pdu.varbinds.map(varbindOf) };
  }
  const trapOid = pdu.varbinds.find((v) => v.oid === SNMP_TRAP_OID)?.value;
  const upTime = pdu.varbinds.find((v) => v.oid === SYS_UP_TIME)?.value;
  return {
    deviceId,
    source,
    version,
    kind,
    trapOid: typeof trapOid === 'string' ? trapOid : '',
    upTime: typeof upTime === 'number' ? upTime : undefined,
    varbinds: pdu.varbinds.filter((v) => v.oid !== SNMP_TRAP_OID && v.oid !== SYS_UP_TIME).map(varbindOf),
  };
}

function varbindOf(varbind: snmp.Varbind): TrapVarbind {
  return { oid: varbind.oid, value: naturalValue(varbind) };
}
