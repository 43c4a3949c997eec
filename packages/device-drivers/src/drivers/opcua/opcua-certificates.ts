/**
 * Certificates of the OPC UA driver, all in memory (nothing is written to disk): this client's
 * application certificate and key, made here when the configuration brings none, and the trust
 * decision on the server's certificate (a configured SHA-1 thumbprint, or trust on first use).
 * Decision 0048.
 */
import { createHash, KeyObject, webcrypto } from 'node:crypto';
import { hostname } from 'node:os';
import {
  CertificatePurpose,
  convertPEMtoDER,
  createSelfSignedCertificate,
  makePrivateKeyFromPem,
  split_der,
  type PrivateKey,
} from 'node-opcua-crypto';

/** An application certificate with its key: PEM texts, and the forms node-opcua takes. */
export interface OpcuaKeyPair {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  /** The certificate in DER. */
  readonly certificate: Buffer;
  readonly privateKey: PrivateKey;
  /** The application URI the certificate names (its subjectAltName URI), which the client must present. */
  readonly applicationUri: string;
}

/** The application URI of a certificate made here: one per host. */
export function triadApplicationUri(): string {
  return `urn:${hostname().replace(/[^A-Za-z0-9.-]/g, '-')}:triad:device-collector`;
}

/**
 * A new self-signed application certificate (RSA 2048, SHA-256, valid 10 years) for `applicationUri`,
 * usable for Sign and SignAndEncrypt with Basic256Sha256. Takes about 100 ms of CPU.
 */
export async function createApplicationCertificate(applicationUri = triadApplicationUri()): Promise<OpcuaKeyPair> {
  const { privateKey } = await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const exported = KeyObject.from(privateKey).export({ type: 'pkcs8', format: 'pem' });
  const privateKeyPem = typeof exported === 'string' ? exported : exported.toString('utf8');
  const { cert } = await makeCertificate({
    privateKey,
    subject: '/CN=Triad device collector/O=Triad',
    applicationUri,
    dns: [hostname()],
    validity: 3650,
    purpose: CertificatePurpose.ForApplication,
  });
  return keyPairFromPem(cert, privateKeyPem, applicationUri);
}

/**
 * node-opcua-crypto's certificate maker as used here: its key type is the DOM's `CryptoKey`,
 * which Node's types call `webcrypto.CryptoKey` (CONTRIBUTING rule 3).
 */
type MakeCertificate = (options: {
  readonly privateKey: webcrypto.CryptoKey;
  readonly subject: string;
  readonly applicationUri: string;
  readonly dns: string[];
  readonly validity: number;
  readonly purpose: CertificatePurpose;
}) => Promise<{ readonly cert: string }>;
const makeCertificate: MakeCertificate = createSelfSignedCertificate;

/** A key pair from PEM texts (a configured `clientCertificate`, or a stored one). */
export function keyPairFromPem(certificatePem: string, privateKeyPem: string, applicationUri?: string): OpcuaKeyPair {
  const certificate = convertPEMtoDER(certificatePem);
  return {
    certificatePem,
    privateKeyPem,
    certificate,
    privateKey: makePrivateKeyFromPem(privateKeyPem),
    applicationUri: applicationUri ?? certificateUri(certificate) ?? triadApplicationUri(),
  };
}

/** The subjectAltName URI of a DER certificate, read from its text (the first `urn:` string), or undefined. */
function certificateUri(certificate: Buffer): string | undefined {
  // A URI in subjectAltName is an IA5String tagged [6] (0x86) followed by its length.
  for (let i = 0; i + 2 < certificate.length; i++) {
    if (certificate[i] !== 0x86) continue;
    const length = certificate[i + 1] ?? 0;
    if (length >= 0x80) continue;
    const text = certificate.subarray(i + 2, i + 2 + length).toString('latin1');
    if (/^[a-z][a-z0-9+.-]*:[\x21-\x7e]+$/i.test(text)) return text;
  }
  return undefined;
}

/** The SHA-1 thumbprint (lower-case hex) of the first certificate of a DER chain: what OPC UA tools show. */
export function thumbprintOf(chain: Buffer): string {
  const [first] = chain.length > 0 ? split_der(chain) : [];
  return createHash('sha1')
    .update(first ?? chain)
    .digest('hex');
}

/**
 * The verdicts on server certificates, per endpoint. Default (in memory): the first certificate
 * an endpoint shows is remembered for the life of the process, a different one later is refused.
 */
export interface ServerCertificateTrust {
  /** `trusted` when `thumbprint` is the one remembered for `endpoint` (or the first seen), else the remembered one. */
  check(
    endpoint: string,
    thumbprint: string,
  ): Promise<{ readonly trusted: true } | { readonly trusted: false; readonly expected: string }>;
}

/** Trust on first use, remembered in this process only. */
export class MemoryServerCertificateTrust implements ServerCertificateTrust {
  readonly #seen = new Map<string, string>();

  check(endpoint: string, thumbprint: string): Promise<{ trusted: true } | { trusted: false; expected: string }> {
    const expected = this.#seen.get(endpoint);
    if (expected === undefined) this.#seen.set(endpoint, thumbprint);
    return Promise.resolve(
      expected === undefined || expected === thumbprint ? { trusted: true } : { trusted: false, expected },
    );
  }
}
