/**
 * Test support: a real OPC UA server (node-opcua's) on loopback, with security None, Sign and
 * SignAndEncrypt (Basic256Sha256), a user `operator` with password `secret`, user certificates
 * accepted, and a `Boiler` object in namespace 1 whose variables the test sets. Its PKI lives in
 * a temporary folder that a later server may reuse (`pkiDir`), so that it keeps its certificate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import {
  DataType,
  MessageSecurityMode,
  SecurityPolicy,
  StatusCodes,
  Variant,
  VariantArrayType,
  type StatusCode,
} from 'node-opcua-client';
import { OPCUAServer } from 'node-opcua-server';

export interface OpcuaTestServerOptions {
  /** Listen on this port; default a free one. */
  readonly port?: number;
  /** Reuse the PKI (and so the certificate) of an earlier server. */
  readonly pkiDir?: string;
  /** Whether anonymous sessions are allowed; default true. */
  readonly allowAnonymous?: boolean;
  /** Whether client certificates the server does not know are accepted; default true. */
  readonly acceptUnknownClients?: boolean;
}

export interface OpcuaTestServer {
  /** `opc.tcp://127.0.0.1:<port>` */
  readonly endpointUrl: string;
  readonly port: number;
  readonly pkiDir: string;
  /** Sets `Boiler.Temperature` (Double). */
  setTemperature(value: number): void;
  /** Sets the status of `Boiler.Temperature` (a Bad status makes it read Bad). */
  setTemperatureStatus(status: StatusCode): void;
  /** Sets `Boiler.Pressure` (an AnalogItem with EURange 0 to 10). */
  setPressure(value: number): void;
  /** The server's application certificate in DER. */
  certificate(): Buffer;
  /** Stops the server; with `removePki` (default true) its PKI folder goes too. */
  stop(removePki?: boolean): Promise<void>;
}

export async function startOpcuaServer(options: OpcuaTestServerOptions = {}): Promise<OpcuaTestServer> {
  const pkiDir = options.pkiDir ?? mkdtempSync(join(tmpdir(), 'triad-opcua-'));
  const serverCertificateManager = new OPCUACertificateManager({
    rootFolder: join(pkiDir, 'server'),
    automaticallyAcceptUnknownCertificate: options.acceptUnknownClients ?? true,
  });
  const userCertificateManager = new OPCUACertificateManager({
    rootFolder: join(pkiDir, 'users'),
    automaticallyAcceptUnknownCertificate: true,
  });
  const server = new OPCUAServer({
    port: options.port ?? 0,
    hostname: '127.0.0.1',
    serverCertificateManager,
    userCertificateManager,
    allowAnonymous: options.allowAnonymous ?? true,
    securityModes: [MessageSecurityMode.None, MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt],
    securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
    buildInfo: { productName: 'Triad test server', softwareVersion: '1.2.3', manufacturerName: 'Triad' },
    userManager: {
      isValidUser: (userName: string, password: string) => userName === 'operator' && password === 'secret',
    },
  });
  await server.initialize();
  const addressSpace = server.engine.addressSpace;
  if (addressSpace === null) throw new Error('the OPC UA test server has no address space');
  const namespace = addressSpace.getOwnNamespace();
  const boiler = namespace.addObject({ organizedBy: addressSpace.rootFolder.objects, browseName: 'Boiler' });
  const temperature = namespace.addVariable({
    componentOf: boiler,
    browseName: 'Temperature',
    nodeId: 's=Boiler.Temperature',
    dataType: 'Double',
    minimumSamplingInterval: 50,
  });
  temperature.setValueFromSource(new Variant({ dataType: DataType.Double, value: 21.5 }));
  const pressure = namespace.addAnalogDataItem({
    componentOf: boiler,
    browseName: 'Pressure',
    nodeId: 's=Boiler.Pressure',
    dataType: 'Double',
    engineeringUnitsRange: { low: 0, high: 10 },
    minimumSamplingInterval: 50,
  });
  pressure.setValueFromSource(new Variant({ dataType: DataType.Double, value: 1 }));
  const counter = namespace.addVariable({
    componentOf: boiler,
    browseName: 'Counter',
    nodeId: 's=Boiler.Counter',
    dataType: 'Int64',
  });
  counter.setValueFromSource(
    new Variant({ dataType: DataType.Int64, arrayType: VariantArrayType.Scalar, value: [1, 5] }),
  );
  const name = namespace.addVariable({ componentOf: boiler, browseName: 'Name', nodeId: 'i=1001', dataType: 'String' });
  name.setValueFromSource(new Variant({ dataType: DataType.String, value: 'Boiler 1' }));
  await server.start();
  const port = server.endpoints[0]?.port ?? 0;
  return {
    endpointUrl: `opc.tcp://127.0.0.1:${port}`,
    port,
    pkiDir,
    setTemperature: (value) => temperature.setValueFromSource(new Variant({ dataType: DataType.Double, value })),
    setTemperatureStatus: (status) =>
      temperature.setValueFromSource(new Variant({ dataType: DataType.Double, value: 0 }), status),
    setPressure: (value) => pressure.setValueFromSource(new Variant({ dataType: DataType.Double, value })),
    certificate: () => server.getCertificate(),
    async stop(removePki = true) {
      await server.shutdown(0);
      if (removePki) rmSync(pkiDir, { recursive: true, force: true });
    },
  };
}

/** The status a test gives a variable to make it read bad. */
export const OPCUA_BAD_STATUS = StatusCodes.BadSensorFailure;
