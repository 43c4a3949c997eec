/**
 * OPC UA discovery: at each address a person names, opens a session on `opc.tcp://<address>:<port>`
 * the way the driver will (same settings, address policy, certificates), reads the server's
 * BuildInfo and browses the Objects folder one level, so that templates can be matched by what the
 * server says it is. Bounded like SNMP discovery: `concurrency` at once, `ratePerSecond` starts.
 */
import type { ReferenceDescription } from 'node-opcua-client';
import { AddressGuard } from '../../address-guard.js';
import { toDriverError } from '../../driver-error.js';
import { createApplicationCertificate, MemoryServerCertificateTrust, type OpcuaKeyPair } from './opcua-certificates.js';
import { OpcuaConnection } from './opcua-connection.js';
import { loadOpcua } from './opcua-library.js';
import { opcuaSettings } from './opcua-settings.js';

export interface OpcuaProbeOptions {
  /** Driver settings as a template holds them (security, identity, timeouts); `endpointUrl` is set per target. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Port of every target (default 4840). */
  readonly port?: number;
  readonly guard?: AddressGuard;
  readonly keyPair?: () => Promise<OpcuaKeyPair>;
  readonly concurrency?: number;
  readonly ratePerSecond?: number;
}

export interface OpcuaProbeResult {
  readonly address: string;
  readonly endpointUrl: string;
  /** `<manufacturer> <product> <software version>` from BuildInfo: what `rangerFilter.description` matches. */
  readonly description?: string;
  readonly productName?: string;
  readonly manufacturerName?: string;
  readonly softwareVersion?: string;
  /** Browse names under the Objects folder (`Server`, `2:Boiler`), at most 50. */
  readonly objects?: readonly string[];
  readonly error?: { readonly code: string; readonly message: string };
}

// Server_ServerStatus_BuildInfo_ManufacturerName, _ProductName and _SoftwareVersion (Part 5 / node-opcua-constants).
const BUILD_INFO = ['i=2263', 'i=2261', 'i=2264'];

/** Probes every target; one result per target, in target order. */
export async function probeOpcuaServers(
  targets: readonly string[],
  options: OpcuaProbeOptions = {},
): Promise<OpcuaProbeResult[]> {
  const port = options.port ?? 4840;
  const { AttributeIds, BrowseDirection, NodeClassMask } = await loadOpcua();
  let made: Promise<OpcuaKeyPair> | undefined;
  const keyPair = options.keyPair ?? (() => (made ??= createApplicationCertificate()));
  const trust = new MemoryServerCertificateTrust();
  const guard = options.guard ?? new AddressGuard();
  const results: OpcuaProbeResult[] = new Array<OpcuaProbeResult>(targets.length);
  const gap = 1000 / (options.ratePerSecond ?? 50);
  let next = 0;
  let lastStart = 0;
  const worker = async () => {
    for (let i = next++; i < targets.length; i = next++) {
      const wait = lastStart + gap - Date.now();
      lastStart = Math.max(Date.now(), lastStart + gap);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const address = targets[i] ?? '';
      const host = address.includes(':') ? `[${address}]` : address;
      const endpointUrl = `opc.tcp://${host}:${port}`;
      results[i] = await probeOne(
        address,
        endpointUrl,
        options.settings ?? {},
        { guard, keyPair, trust },
        {
          value: AttributeIds.Value,
          forward: BrowseDirection.Forward,
          mask: NodeClassMask.Object | NodeClassMask.Variable,
        },
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, targets.length) }, worker));
  return results;
}

async function probeOne(
  address: string,
  endpointUrl: string,
  settings: Readonly<Record<string, unknown>>,
  options: ConstructorParameters<typeof OpcuaConnection>[1],
  ua: { readonly value: number; readonly forward: number; readonly mask: number },
): Promise<OpcuaProbeResult> {
  let connection: OpcuaConnection | undefined;
  try {
    connection = new OpcuaConnection(opcuaSettings({ ...settings, endpointUrl }), options);
    const values = await connection.request('read BuildInfo', (session) =>
      session.read(BUILD_INFO.map((nodeId) => ({ nodeId, attributeId: ua.value }))),
    );
    const [manufacturerName, productName, softwareVersion] = values.map((value) =>
      value.statusCode.isGood() && typeof value.value.value === 'string' ? value.value.value : undefined,
    );
    const browsed = await connection.request('browse Objects', (session) =>
      session.browse({
        nodeId: 'i=85', // the Objects folder
        browseDirection: ua.forward,
        referenceTypeId: 'i=33', // HierarchicalReferences
        includeSubtypes: true,
        nodeClassMask: ua.mask,
        resultMask: 0x3f,
      }),
    );
    const objects = (browsed.references ?? []).slice(0, 50).map((reference: ReferenceDescription) => {
      const { namespaceIndex, name } = reference.browseName;
      return namespaceIndex === 0 ? (name ?? '') : `${namespaceIndex}:${name ?? ''}`;
    });
    const description = [manufacturerName, productName, softwareVersion].filter(Boolean).join(' ');
    return {
      address,
      endpointUrl,
      ...(description !== '' ? { description } : {}),
      ...(productName !== undefined ? { productName } : {}),
      ...(manufacturerName !== undefined ? { manufacturerName } : {}),
      ...(softwareVersion !== undefined ? { softwareVersion } : {}),
      objects,
    };
  } catch (error) {
    const failure = toDriverError(error, endpointUrl);
    return { address, endpointUrl, error: { code: failure.code, message: failure.message } };
  } finally {
    await connection?.close();
  }
}
