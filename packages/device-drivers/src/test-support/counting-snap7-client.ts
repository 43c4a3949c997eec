/**
 * node-snap7 clients that count what they send, for the S7 driver's tests and benchmark: pass
 * `counter.newClient` to `createS7Driver` and read the counts after a poll. Free of vitest.
 */
import { newSnap7Client, type Snap7Client } from '../drivers/s7/snap7-client.js';

export interface Snap7Counter {
  /** ReadMultiVars requests sent (round trips). */
  requests: number;
  /** The items of each request, in order. */
  readonly items: number[];
  /** ConnectTo calls (connections opened or tried). */
  connects: number;
  readonly newClient: () => Snap7Client;
}

export function countingSnap7Clients(): Snap7Counter {
  const counter: Snap7Counter = {
    requests: 0,
    items: [],
    connects: 0,
    newClient: () => {
      const client = newSnap7Client();
      return {
        SetParam: (param, value) => client.SetParam(param, value),
        SetConnectionType: (type) => client.SetConnectionType(type),
        ConnectTo: (ip, rack, slot, callback) => {
          counter.connects += 1;
          client.ConnectTo(ip, rack, slot, callback);
        },
        SetSessionPassword: (password, callback) => client.SetSessionPassword(password, callback),
        ReadMultiVars: (items, callback) => {
          counter.requests += 1;
          counter.items.push(items.length);
          client.ReadMultiVars(items, callback);
        },
        Disconnect: () => client.Disconnect(),
        Connected: () => client.Connected(),
        PDULength: () => client.PDULength(),
        ErrorText: (code) => client.ErrorText(code),
      };
    },
  };
  return counter;
}
