/**
 * node-opcua-client, loaded at the first OPC UA connection and not before. Importing it runs a
 * self-test that generates an RSA key and, on Node versions that refuse RSA PKCS#1 v1.5 (20.11.1
 * and later), prints a warning (NODE-OPCUA-W27) on standard output: every process that imports
 * the drivers (the command line writing JSON to standard output among them) would otherwise pay
 * for it and show it, OPC UA devices or not.
 */
import type * as OpcuaClient from 'node-opcua-client';

export type OpcuaLibrary = typeof OpcuaClient;

let loading: Promise<OpcuaLibrary> | undefined;
let loaded: OpcuaLibrary | undefined;

/** Loads node-opcua-client once; later calls get the same module. */
export function loadOpcua(): Promise<OpcuaLibrary> {
  loading ??= import('node-opcua-client').then((library) => (loaded = library));
  return loading;
}

/** The loaded library, for code that runs only once a connection exists; throws before `loadOpcua` resolved. */
export function opcuaLibrary(): OpcuaLibrary {
  if (loaded === undefined) throw new Error('node-opcua-client is not loaded yet (loadOpcua)');
  return loaded;
}
