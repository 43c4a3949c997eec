/**
 * The few methods of node-snap7's `S7Client` the S7 driver calls (CONTRIBUTING rule 3), and its
 * loading. node-snap7 is CommonJS without types and builds the snap7 library natively when it is
 * installed; it is loaded on first use, so that a host where it did not build can still run the
 * other drivers (the S7 devices are then `down` with code `unsupported`).
 */
import { createRequire } from 'node:module';
import { DriverError } from '../../driver-error.js';

/** One item of a `ReadMultiVars` request. */
export interface Snap7ReadItem {
  readonly Area: number;
  readonly WordLen: number;
  readonly DBNumber: number;
  readonly Start: number;
  readonly Amount: number;
}

/** Its answer: `Result` 0 and the bytes, or a snap7 error code and `Data` null. */
export interface Snap7ReadResult {
  readonly Result: number;
  readonly Data: Buffer | null;
}

/** A snap7 error code (0 for none) as node-snap7 passes it to callbacks. */
export type Snap7Error = number | null | undefined;

export interface Snap7Client {
  SetParam(param: number, value: number): boolean;
  SetConnectionType(type: number): boolean;
  ConnectTo(ip: string, rack: number, slot: number, callback: (error: Snap7Error) => void): void;
  SetSessionPassword(password: string, callback: (error: Snap7Error) => void): void;
  ReadMultiVars(items: Snap7ReadItem[], callback: (error: Snap7Error, results: Snap7ReadResult[]) => void): void;
  Disconnect(): boolean;
  Connected(): boolean;
  PDULength(): number;
  ErrorText(code: number): string;
}

/** snap7's numbers (s7_types.h, snap7.h): areas, word length and client parameters. */
export const SNAP7 = {
  areaInputs: 0x81,
  areaOutputs: 0x82,
  areaMerkers: 0x83,
  areaDB: 0x84,
  wordLenByte: 0x02,
  paramRemotePort: 2,
  paramPingTimeout: 3,
  paramSendTimeout: 4,
  paramRecvTimeout: 5,
  connectionTypes: { PG: 1, OP: 2, BASIC: 3 },
} as const;

export const SNAP7_INSTALL = 'npm install node-snap7 (needs a C++ compiler)';

interface Snap7Module {
  readonly S7Client: new () => Snap7Client;
}

let loaded: Snap7Module | Error | undefined;

/** node-snap7, or the reason it cannot be loaded. */
export function loadSnap7(): Snap7Module | Error {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('node-snap7') as Snap7Module;
    } catch (error) {
      loaded = error instanceof Error ? error : new Error(String(error));
    }
  }
  return loaded;
}

/** A new client; a `unsupported` DriverError when node-snap7 cannot be loaded here. */
export function newSnap7Client(): Snap7Client {
  const snap7 = loadSnap7();
  if (snap7 instanceof Error)
    throw new DriverError('unsupported', `node-snap7 cannot be loaded (${snap7.message}): ${SNAP7_INSTALL}`, {
      cause: snap7,
    });
  return new snap7.S7Client();
}
