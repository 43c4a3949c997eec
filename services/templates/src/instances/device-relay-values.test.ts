import { describe, expect, it } from 'vitest';
import type { DeviceRepository } from '../repositories/device-repository.js';
import { MAX_PIECED_VALUE_BYTES, parseDeviceMessage, type DeviceMessage } from './device-messages.js';
import { DeviceRelay } from './device-relay.js';
import type { DeviceValue } from '../presenters/device-presenter.js';
import type { DeviceStreamItem } from './device-listeners.js';

// Two relays, as in two instances, passing their messages to each other as the change bus would:
// serialized, in order, each to the other (the bus itself is tested in @triad/db and, cut for
// real, in device-relay.test.ts). The owner collects device `d1`; the other streams it.

const value = (datapointId: string, text: string): DeviceValue => ({
  datapointSetId: 'status',
  datapointId,
  row: null,
  value: text,
  rawValue: text,
  quality: 'good',
  timestamp: 1_764_000_000_000,
});

function pair(ownerValues: DeviceValue[]) {
  const delivered: DeviceStreamItem[] = [];
  const warnings: string[] = [];
  const log = { warn: (_: object, message: string) => warnings.push(message) };
  const relays: DeviceRelay[] = [];
  const send = (to: number) => (_topic: string, message: DeviceMessage) => {
    const parsed = parseDeviceMessage(JSON.stringify(message));
    if (parsed) setImmediate(() => relays[to]!.receive(parsed));
    return Promise.resolve();
  };
  const owner = {
    values: (id: string) => (id === 'd1' ? ownerValues : undefined),
    listeners: { listened: () => [], hasListeners: () => false, deliver: () => {} },
  };
  const watcher = {
    values: () => undefined,
    listeners: {
      listened: () => ['d1'],
      hasListeners: (id: string) => id === 'd1',
      deliver: (_id: string, item: DeviceStreamItem) => delivered.push(item),
    },
  };
  const devices = {} as DeviceRepository;
  relays.push(
    new DeviceRelay({ instanceId: 'a', ...owner, devices, owns: () => true, publish: send(1), log }),
    new DeviceRelay({ instanceId: 'b', ...watcher, devices, owns: () => false, publish: send(0), log }),
  );
  return { owner: relays[0]!, watcher: relays[1]!, delivered, warnings };
}

describe('device values between instances', () => {
  it('answers an ask with a value too large for one bus message, in pieces, beside the small ones', async () => {
    const values = [value('small', 'ok'), value('config', `"quoted" \\ ${'é😀'.repeat(20_000)}`), value('tail', 'x')];
    const { watcher, warnings } = pair(values);
    const answered = await watcher.ask('d1');
    expect(answered).toHaveLength(3);
    expect(new Map(answered.map((v) => [v.datapointId, v]))).toEqual(new Map(values.map((v) => [v.datapointId, v])));
    expect(warnings).toEqual([]);
  });

  it('refreshes a stream with a pieced value; one over the limit stays with its collector, logged', async () => {
    const tooLarge = value('dump', 'z'.repeat(MAX_PIECED_VALUE_BYTES + 1));
    const large = value('config', 'y'.repeat(20_000));
    const { watcher, delivered, warnings } = pair([tooLarge, large]);
    watcher.watch('d1');
    await watcher.refreshValues();
    expect(delivered).toEqual([{ kind: 'values', values: [large] }]);
    expect(warnings).toEqual([expect.stringContaining(`values over ${MAX_PIECED_VALUE_BYTES} bytes`)]);
  });
});
