/**
 * One OPC UA connection to one server: a node-opcua client with a secure channel and a session,
 * opened on first use (the endpoint's host resolved and checked by the address policy, then
 * reached by the checked address), kept while it works, dropped when the channel is lost or a
 * request fails for the session, and opened again on the next use. Whoever needs to know (the
 * subscriptions) hears of each new session and each loss. Decision 0048.
 */
import type { ClientSession, OPCUAClient, StatusCode, UserIdentityInfo } from 'node-opcua-client';
import type { AddressGuard } from '../../address-guard.js';
import { DriverError, toDriverError } from '../../driver-error.js';
import { errorMessage } from '@triad/common';
import { keyPairFromPem, thumbprintOf, type OpcuaKeyPair, type ServerCertificateTrust } from './opcua-certificates.js';
import { loadOpcua, type OpcuaLibrary } from './opcua-library.js';
import type { OpcuaSettings } from './opcua-settings.js';

/** What a connection needs besides its settings. */
export interface OpcuaConnectionOptions {
  readonly guard: AddressGuard;
  /** This client's application certificate when the settings bring none. */
  readonly keyPair: () => Promise<OpcuaKeyPair>;
  readonly trust: ServerCertificateTrust;
  readonly log?: ((message: string) => void) | undefined;
}

type SessionListener = (session: ClientSession) => Promise<void>;
type LossListener = (error: DriverError) => void;

/** Status codes of a request that mean the session (not the node) is gone. */
const SESSION_GONE: readonly string[] = [
  'BadSessionIdInvalid',
  'BadSessionClosed',
  'BadSessionNotActivated',
  'BadSecureChannelIdInvalid',
  'BadSecureChannelClosed',
  'BadConnectionClosed',
  'BadServerNotConnected',
  'BadCommunicationError',
];

export class OpcuaConnection {
  readonly #settings: OpcuaSettings;
  readonly #options: OpcuaConnectionOptions;
  readonly #target: string;
  readonly #sessionListeners = new Set<SessionListener>();
  readonly #lossListeners = new Set<LossListener>();
  #opening: Promise<ClientSession> | undefined;
  #client: OPCUAClient | undefined;
  #session: ClientSession | undefined;
  #closed = false;
  #opened = 0;
  /** Why the server's certificate was refused at the last attempt, to say so instead of the library's words. */
  #refusal: string | undefined;

  constructor(settings: OpcuaSettings, options: OpcuaConnectionOptions) {
    this.#settings = settings;
    this.#options = options;
    this.#target = settings.endpointUrl;
  }

  /** How many sessions were opened so far (1 while the first stays up). */
  get opened(): number {
    return this.#opened;
  }

  get isOpen(): boolean {
    return this.#session !== undefined;
  }

  /** Calls `listener` with every new session (after the connection came up); it may set up subscriptions. */
  onSession(listener: SessionListener): void {
    this.#sessionListeners.add(listener);
  }

  /** Calls `listener` when an open connection is lost. */
  onLoss(listener: LossListener): void {
    this.#lossListeners.add(listener);
  }

  /** The open session, connecting first when there is none; a `DriverError` when that fails. */
  session(): Promise<ClientSession> {
    if (this.#closed) return Promise.reject(new DriverError('configuration', `${this.#target}: the driver is closed`));
    if (this.#session !== undefined) return Promise.resolve(this.#session);
    this.#opening ??= this.#open().finally(() => (this.#opening = undefined));
    return this.#opening;
  }

  /**
   * Runs one request on the session, cut off after the request timeout or when `signal` aborts.
   * A failure that means the session or channel is gone drops the connection (the next use opens
   * a new one) and is a `DriverError`.
   */
  async request<T>(what: string, work: (session: ClientSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const session = await this.session();
    try {
      return await deadline(work(session), this.#settings.requestTimeoutMs, signal, `${this.#target}: ${what}`);
    } catch (error) {
      const driverError = this.#error(error, what);
      if (driverError.code !== 'protocol' || sessionGone(error)) await this.drop(driverError);
      throw driverError;
    }
  }

  /** Closes the session and channel now; tells the loss listeners when `error` is given. */
  async drop(error?: DriverError): Promise<void> {
    const client = this.#client;
    const session = this.#session;
    this.#client = undefined;
    this.#session = undefined;
    if (client === undefined) return;
    if (error !== undefined) for (const listener of this.#lossListeners) listener(error);
    await closeQuietly(client, session);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#opening?.catch(() => undefined);
    await this.drop();
  }

  async #open(): Promise<ClientSession> {
    const { host, port, path, securityMode, securityPolicy, connectTimeoutMs } = this.#settings;
    const ua = await loadOpcua();
    const [first] = await this.#options.guard.resolve(host, port);
    if (first === undefined) throw new DriverError('unreachable', `${this.#target}: ${host} has no address`);
    const address = first.family === 6 ? `[${first.address}]` : first.address;
    const keyPair =
      this.#settings.clientCertificate !== undefined
        ? keyPairFromPem(this.#settings.clientCertificate.certificate, this.#settings.clientCertificate.privateKey)
        : await this.#options.keyPair();
    this.#refusal = undefined;
    const client = ua.OPCUAClient.create({
      applicationName: 'Triad',
      applicationUri: keyPair.applicationUri,
      securityMode: ua.MessageSecurityMode[securityMode],
      securityPolicy: ua.SecurityPolicy[securityPolicy],
      endpointMustExist: false,
      // The collector decides when to try again (growing delays); node-opcua must not retry on its own.
      connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 200 },
      defaultTransactionTimeout: this.#settings.requestTimeoutMs,
      requestedSessionTimeout: 60_000,
      keepSessionAlive: true,
      certificateKeyPairProvider: {
        getCertificate: () => keyPair.certificate,
        getCertificateChain: () => [keyPair.certificate],
        getPrivateKey: () => keyPair.privateKey,
      },
      clientCertificateManager: this.#certificateStore(ua, thumbprintOf(keyPair.certificate)),
    });
    const url = `opc.tcp://${address}:${port}${path}`;
    let session: ClientSession | undefined;
    try {
      await deadline(client.connect(url), connectTimeoutMs, undefined, `${this.#target}: connect`);
      session = await deadline(
        client.createSession(this.#identity(ua)),
        connectTimeoutMs,
        undefined,
        `${this.#target}: session`,
      );
    } catch (error) {
      await closeQuietly(client, session);
      throw this.#error(error, 'connect');
    }
    if (this.#closed) {
      await closeQuietly(client, session);
      throw new DriverError('configuration', `${this.#target}: the driver is closed`);
    }
    this.#client = client;
    this.#session = session;
    this.#opened++;
    const lost = (why: string) => {
      if (this.#client !== client) return;
      void this.drop(new DriverError('unreachable', `${this.#target}: ${why}`));
    };
    client.on('connection_lost', () => lost('the connection was lost'));
    client.on('close', () => lost('the connection was closed'));
    session.on('session_closed', () => lost('the server closed the session'));
    session.on('keepalive_failure', () => lost('the server stopped answering keep-alives'));
    for (const listener of this.#sessionListeners) {
      try {
        await listener(session);
      } catch (error) {
        this.#options.log?.(`${this.#target}: ${errorMessage(error)}`);
      }
    }
    return session;
  }

  #identity(ua: OpcuaLibrary): UserIdentityInfo {
    const { UserTokenType } = ua;
    const { identity } = this.#settings;
    if (identity.type === 'username')
      return { type: UserTokenType.UserName, userName: identity.userName, password: identity.password };
    if (identity.type === 'certificate') {
      const pair = keyPairFromPem(identity.certificate, identity.privateKey);
      return { type: UserTokenType.Certificate, certificateData: pair.certificate, privateKey: identity.privateKey };
    }
    return { type: UserTokenType.Anonymous };
  }

  /**
   * The trust store node-opcua asks about the server's certificate: the configured thumbprint, or
   * the trust on first use of `options.trust`. Nothing is stored on disk.
   */
  #certificateStore(ua: OpcuaLibrary, own: string) {
    const { StatusCodes } = ua;
    const check = async (chain: Buffer | Buffer[]): Promise<StatusCode> => {
      if (this.#settings.securityMode === 'None') return StatusCodes.Good;
      const certificate = Array.isArray(chain) ? chain[0] : chain;
      if (certificate === undefined || certificate.length === 0) {
        this.#refusal = 'the server sent no certificate';
        return StatusCodes.BadCertificateInvalid;
      }
      const thumbprint = thumbprintOf(certificate);
      // node-opcua checks this client's own certificate through the same store at start.
      if (thumbprint === own) return StatusCodes.Good;
      const pinned = this.#settings.serverCertificate;
      if (pinned !== undefined) {
        if (pinned === thumbprint) return StatusCodes.Good;
        this.#refusal =
          `the server's certificate (SHA-1 ${thumbprint}) is not the one serverCertificate trusts (${pinned}); ` +
          `if the server was given a new certificate, set serverCertificate to ${thumbprint}`;
        return StatusCodes.BadCertificateUntrusted;
      }
      const verdict = await this.#options.trust.check(this.#target, thumbprint);
      if (verdict.trusted) return StatusCodes.Good;
      this.#refusal =
        `the server's certificate changed (SHA-1 ${thumbprint}, first seen ${verdict.expected}); ` +
        `if that is expected, set serverCertificate to ${thumbprint}`;
      return StatusCodes.BadCertificateUntrusted;
    };
    return {
      referenceCounter: 0,
      initialize: () => Promise.resolve(),
      dispose: () => Promise.resolve(),
      checkCertificate: check,
      // Asked only to explain a refusal already decided by checkCertificate (node-opcua's debug path).
      verifyCertificate: () => Promise.resolve('Good'),
      trustCertificate: () => Promise.resolve(),
      rejectCertificate: () => Promise.resolve(),
      getTrustStatus: () => Promise.resolve(StatusCodes.Good),
      addIssuer: () => Promise.resolve(),
      addRevocationList: () => Promise.resolve(),
    };
  }

  /** `error` in an operator's words. */
  #error(error: unknown, what: string): DriverError {
    if (error instanceof DriverError) return error;
    const message = errorMessage(error);
    if (this.#refusal !== undefined)
      return new DriverError('authentication', `${this.#target}: ${this.#refusal}`, { cause: error });
    if (/BadIdentityTokenRejected|BadIdentityTokenInvalid|BadUserAccessDenied|BadUser/i.test(message))
      return new DriverError(
        'authentication',
        `${this.#target}: the server refused the identity (${this.#settings.identity.type}); check identity.userName ` +
          'and identity.password, or identity.certificate',
        { cause: error },
      );
    if (/BadSecurityPolicyRejected|cannot find endpoint|BadSecurityModeRejected/i.test(message))
      return new DriverError(
        'configuration',
        `${this.#target}: the server offers no endpoint with securityMode ${this.#settings.securityMode} and ` +
          `securityPolicy ${this.#settings.securityPolicy}; choose one the server offers`,
        { cause: error },
      );
    if (/BadCertificate|BadSecurityChecksFailed/i.test(message))
      return new DriverError(
        'authentication',
        `${this.#target}: the server refused this client's certificate (${message.replace(/\s+/g, ' ').slice(0, 160)}); ` +
          "trust it on the server (it is in the server's rejected certificates) or give clientCertificate",
        { cause: error },
      );
    const converted = toDriverError(error, `${this.#target}: ${what}`);
    if (converted.code === 'protocol' && /ECONNREFUSED|connect.*refused/i.test(message))
      return new DriverError('refused', `${this.#target}: connection refused`, { cause: error });
    return converted;
  }
}

/** True when a request failed because the session or channel is gone (not because of one node). */
function sessionGone(error: unknown): boolean {
  const message = errorMessage(error);
  if (SESSION_GONE.some((name) => message.includes(name))) return true;
  return /closed|disconnect|not connected|secure channel/i.test(message);
}

/** `work`, or a timeout DriverError after `ms` or when `signal` aborts (the request finishes on its own). */
export function deadline<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal?.aborted) return Promise.reject(new DriverError('timeout', `${what}: cut short`));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DriverError('timeout', `${what}: no answer within ${ms} ms`)), ms);
    const onAbort = () => reject(new DriverError('timeout', `${what}: cut short`));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

async function closeQuietly(client: OPCUAClient, session: ClientSession | undefined): Promise<void> {
  try {
    if (session !== undefined) await deadline(session.close(), 2000, undefined, 'close session');
  } catch {
    // The server may be gone already: the channel is closed below either way.
  }
  try {
    await deadline(client.disconnect(), 2000, undefined, 'disconnect');
  } catch {
    // Nothing more to do for a client that does not close in time.
  }
}
