/**
 * The OPC UA driver's certificates kept in the template service's database (decision 0048): the
 * application certificate this service presents to servers, made once and then reused by every
 * restart and every instance on the database (its private key sealed, never returned or logged),
 * and the server certificates trusted on first use, per endpoint URL.
 */
import {
  createApplicationCertificate,
  keyPairFromPem,
  type OpcuaKeyPair,
  type ServerCertificateTrust,
} from '@triad/device-drivers';
import type { SecretCipher, SecretPurpose } from '@triad/service-kit';
import type { OpcuaCertificateRepository } from '../repositories/opcua-certificate-repository.js';

/** What seals the client's private key: the device-secret key, bound to this use. */
export const OPCUA_CLIENT_KEY: SecretPurpose = Object.freeze({
  aad: 'triad-templates:opcua-client-key',
  what: 'OPC UA client private key',
});

/** The name of the one certificate the service presents. */
const DEFAULT_CERTIFICATE = 'default';

export interface OpcuaCertificateStoreOptions {
  readonly repository: OpcuaCertificateRepository;
  /** Any cipher over the service's keys; its purpose is replaced by `OPCUA_CLIENT_KEY`. */
  readonly cipher: SecretCipher;
  /** Makes a new certificate; default `createApplicationCertificate`. */
  readonly create?: () => Promise<OpcuaKeyPair>;
}

export class OpcuaCertificateStore {
  readonly #repository: OpcuaCertificateRepository;
  readonly #cipher: SecretCipher;
  readonly #create: () => Promise<OpcuaKeyPair>;
  #keyPair: Promise<OpcuaKeyPair> | undefined;
  /** Thumbprints already trusted, by endpoint: a reconnect asks the database no more. */
  readonly #trusted = new Map<string, string>();

  constructor(options: OpcuaCertificateStoreOptions) {
    this.#repository = options.repository;
    this.#cipher = options.cipher.withPurpose(OPCUA_CLIENT_KEY);
    this.#create = options.create ?? (() => createApplicationCertificate());
  }

  /**
   * The service's application certificate: the stored one, or one made and stored now (the first
   * stored wins when instances race). Asked once per process; a failure is asked again next time.
   */
  keyPair(): Promise<OpcuaKeyPair> {
    if (this.#keyPair === undefined) {
      const loading = this.#load();
      this.#keyPair = loading;
      loading.catch(() => {
        if (this.#keyPair === loading) this.#keyPair = undefined;
      });
    }
    return this.#keyPair;
  }

  /** Trust on first use, remembered in the database: the driver's `trust`. */
  readonly trust: ServerCertificateTrust = {
    check: async (endpoint, thumbprint) => {
      const expected = this.#trusted.get(endpoint) ?? (await this.#repository.trustOnFirstUse(endpoint, thumbprint));
      this.#trusted.set(endpoint, expected);
      return expected === thumbprint ? { trusted: true } : { trusted: false, expected };
    },
  };

  async #load(): Promise<OpcuaKeyPair> {
    let stored = await this.#repository.clientCertificate(DEFAULT_CERTIFICATE);
    if (stored === undefined) {
      const made = await this.#create();
      stored = await this.#repository.keepClientCertificate(DEFAULT_CERTIFICATE, {
        certificatePem: made.certificatePem,
        privateKeySealed: this.#cipher.seal(made.privateKeyPem),
        applicationUri: made.applicationUri,
      });
    }
    return keyPairFromPem(stored.certificatePem, this.#cipher.open(stored.privateKeySealed), stored.applicationUri);
  }
}
